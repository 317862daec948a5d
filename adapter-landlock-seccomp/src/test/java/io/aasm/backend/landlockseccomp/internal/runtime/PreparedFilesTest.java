package io.aasm.backend.landlockseccomp.internal.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A launch's generated files go with its first close; a removal that failed is tried again by the next close. */
class PreparedFilesTest {
    @TempDir
    Path state;

    @Test
    void theFolderGoesWithTheFirstCloseAndALaterCloseFindsNothingToDo() throws Exception {
        Path dir = Files.createDirectory(state.resolve("launch-1"));
        Files.writeString(dir.resolve("hosts"), "127.0.0.1 localhost\n");
        PreparedFiles files = new PreparedFiles(Optional.of(dir));
        files.close();
        assertFalse(Files.exists(dir), "the folder and its files are removed");
        Files.createDirectory(dir); // the same name again: a later close must not touch what is not its own any more
        files.close();
        assertTrue(Files.isDirectory(dir), "a second close removes nothing");
    }

    @Test
    void aRemovalThatFailedIsTriedAgain() throws Exception {
        Path dir = Files.createDirectory(state.resolve("launch-2"));
        Path inner = Files.createDirectory(dir.resolve("inner")); // a folder inside: deleting it fails while not empty
        Files.writeString(inner.resolve("f"), "x");
        PreparedFiles files = new PreparedFiles(Optional.of(dir));
        files.close();
        assertTrue(Files.isDirectory(dir), "control: the folder could not be removed yet");
        Files.delete(inner.resolve("f"));
        files.close();
        assertFalse(Files.exists(dir), "the next close removed it");
    }
}
