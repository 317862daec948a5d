package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real system calls on a real directory; the end-to-end counterpart is {@code io.aasm.cli.e2e.ReportFileIT}. */
class PinnedDirectoryTest {
    @TempDir
    Path tmp;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aSymlinkAtTheNameIsReplacedAndItsTargetUntouched() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("d"));
        Path target = Files.writeString(tmp.resolve("target"), "mine\n");
        Files.createSymbolicLink(dir.resolve("report"), target);
        try (PinnedDirectory d = PinnedDirectory.open(dir)) {
            d.replace("report", bytes("the report\n"));
        }
        assertEquals("mine\n", Files.readString(target));
        assertFalse(Files.isSymbolicLink(dir.resolve("report")));
        assertEquals("the report\n", Files.readString(dir.resolve("report")));
        assertEquals(List.of("report"), names(dir), "a temporary file was left behind");
    }

    /**
     * A FIFO (a device is the same case, and needs root to make) at the name is never swapped for a file: as root,
     * {@code --report-file /dev/null} once replaced the host's /dev/null with a regular file. Control: a regular
     * file at the name in the same directory is replaced.
     */
    @Test
    void aFifoAtTheNameIsLeftAsItIsAndNothingIsWritten() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("d"));
        Path fifo = dir.resolve("report");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
        try (PinnedDirectory d = PinnedDirectory.open(dir)) {
            IOException refused = assertThrows(IOException.class, () -> d.replace("report", bytes("the report\n")));
            assertTrue(refused.getMessage().contains("not a file aasm may replace"), refused.getMessage());
            Files.writeString(dir.resolve("plain"), "old\n");
            d.replace("plain", bytes("the report\n"));
        }
        assertTrue(Files.readAttributes(fifo, java.nio.file.attribute.BasicFileAttributes.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS).isOther(), "the FIFO was replaced");
        assertEquals("the report\n", Files.readString(dir.resolve("plain")), "control: a regular file is replaced");
        assertEquals(List.of("plain", "report"), names(dir), "a temporary file was left behind");
    }

    @Test
    void theDirectoryIsTheOneOpenedWhateverHappensToItsPath() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("d"));
        Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
        try (PinnedDirectory d = PinnedDirectory.open(dir)) {
            Files.move(dir, tmp.resolve("moved"));
            Files.createSymbolicLink(dir, elsewhere);
            d.replace("report", bytes("x"));
        }
        assertEquals(List.of(), names(elsewhere));
        assertEquals("x", Files.readString(tmp.resolve("moved/report")));
    }

    @Test
    void aFailedReplaceChangesNothingAndLeavesNoTemporaryFile() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("d"));
        Files.createDirectory(dir.resolve("report")); // a directory cannot be replaced by a file
        try (PinnedDirectory d = PinnedDirectory.open(dir)) {
            IOException e = assertThrows(IOException.class, () -> d.replace("report", bytes("x")));
            assertTrue(e.getMessage().contains("cannot replace " + dir.resolve("report")), e.getMessage());
        }
        assertEquals(List.of("report"), names(dir));
        assertTrue(Files.isDirectory(dir.resolve("report")));
    }

    @Test
    void aMissingDirectoryIsAnErrorNamingIt() {
        IOException e = assertThrows(IOException.class, () -> PinnedDirectory.open(tmp.resolve("absent")));
        assertTrue(e.getMessage().startsWith(tmp.resolve("absent") + ": "), e.getMessage());
    }
}
