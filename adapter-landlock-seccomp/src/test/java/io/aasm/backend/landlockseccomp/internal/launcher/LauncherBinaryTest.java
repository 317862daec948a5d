package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LauncherBinaryTest {
    @TempDir
    Path cache;

    @Test
    void extractsIntoAChecksumNamedPrivateDirectory() throws IOException {
        LauncherBinary b = LauncherBinary.extract(cache);
        assertEquals(LauncherBinary.embeddedChecksum(), b.sha256());
        assertEquals(cache.resolve(b.sha256()).resolve("aasm-launch"), b.path());
        assertEquals(b.sha256(), LauncherBinary.sha256(Files.readAllBytes(b.path())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(b.path())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(b.path().getParent())));
    }

    @Test
    void replacesATamperedCachedCopy() throws IOException {
        LauncherBinary b = LauncherBinary.extract(cache);
        Files.writeString(b.path(), "#!/bin/sh\necho tampered\n");
        LauncherBinary again = LauncherBinary.extract(cache);
        assertEquals(b.sha256(), LauncherBinary.sha256(Files.readAllBytes(again.path())));
        assertTrue(Files.size(again.path()) > 10_000);
    }

    @Test
    void defaultCacheRootFollowsXdg() {
        Path root = LauncherBinary.defaultCacheRoot();
        assertTrue(root.endsWith(Path.of("aasm", "launcher")), root.toString());
    }
}
