package io.aasm.backend.vm.internal.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A remembered digest is used only while the file keeps its identity; any rewrite is hashed again. */
class FileDigestsTest {
    @Test
    void aRewrittenFileIsHashedAgainEvenWithItsSizeAndTimeKept(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("qemu"), "version one");
        FileDigests d = new FileDigests(Optional.of(dir.resolve("digests")));
        String first = d.sha256(f);
        assertEquals(Digests.sha256(f), first);
        assertEquals(first, d.sha256(f), "unchanged: the same digest");

        var mtime = Files.getLastModifiedTime(f);
        Files.writeString(f, "version two"); // same size
        Files.setLastModifiedTime(f, mtime);  // and the old modification time: only the change time moved
        String second = d.sha256(f);
        assertNotEquals(first, second);
        assertEquals(Digests.sha256(f), second);
    }
}
