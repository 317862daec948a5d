package io.aasm.support.canary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared canary folder: made once, made again when removed, never trusted when it is not aasm's own. */
class CanaryHomeTest {
    @TempDir
    Path dir;

    @Test
    void aRemovedFolderIsMadeAgain() throws IOException {
        Path root = dir.resolve("canaries");
        Path shared = CanaryHome.folder(root);
        assertEquals(shared, CanaryHome.folder(root), "the same folder for every launch");
        Files.delete(CanaryHome.readFile(shared));
        Files.delete(shared);
        assertEquals(shared, CanaryHome.folder(root));
        assertTrue(Files.isRegularFile(CanaryHome.readFile(shared)), "the read canary's file is back");
    }

    /** Control: the folder made by aasm is accepted; one with another mode (a stranger's, say) is refused. */
    @Test
    void aFolderWithAnotherModeIsRefused() throws IOException {
        Path root = Files.createDirectories(dir.resolve("other"));
        Files.createDirectory(root.resolve("shared"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(root.resolve("shared"), PosixFilePermissions.fromString("rwxrwxrwx"));
        IOException e = assertThrows(IOException.class, () -> CanaryHome.folder(root));
        assertTrue(e.getMessage().contains("mode 0700"), e.getMessage());
    }
}
