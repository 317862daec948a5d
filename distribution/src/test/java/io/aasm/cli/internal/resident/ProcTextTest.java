package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reused-buffer reader of small {@code /proc} files reads what {@code Files.readAllLines} read, and fails where it failed. */
class ProcTextTest {
    @TempDir
    Path dir;

    @Test
    void readsTheRealProcFilesOfThisProcessAsReadAllLinesDoes() throws IOException {
        for (String name : List.of("status", "stat", "cgroup")) {
            Path f = Path.of("/proc/self/" + name);
            String text = ProcText.read(f);
            // a /proc file is generated afresh per read: compare the stable first line of status, and shapes
            List<String> lines = Files.readAllLines(f);
            assertEquals(lines.size(), ProcText.lines(text).length, name);
            assertEquals(lines.get(0).split("\\s")[0], ProcText.lines(text)[0].split("\\s")[0], name);
        }
    }

    @Test
    void aFileLargerThanTheBufferIsReadWhole() throws IOException {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            big.append("line ").append(i).append('\n');
        }
        Path f = Files.writeString(dir.resolve("big"), big);
        assertEquals(big.toString(), ProcText.read(f));
        assertEquals(3000, ProcText.lines(ProcText.read(f)).length);
        Path small = Files.writeString(dir.resolve("small"), "a\nb\n");
        assertEquals("a\nb\n", ProcText.read(small), "a grown buffer leaves nothing of a longer read behind");
    }

    @Test
    void linesMatchReadAllLines() throws IOException {
        for (String text : List.of("", "a", "a\n", "a\nb", "a\n\nb\n", "\n", "\n\n")) {
            Path f = Files.writeString(dir.resolve("t"), text);
            assertArrayEquals(Files.readAllLines(f).toArray(), ProcText.lines(ProcText.read(f)), "[" + text + "]");
        }
    }

    @Test
    void validUtf8IsDecodedAndInvalidUtf8IsAnErrorAsBefore() throws IOException {
        Path ok = Files.writeString(dir.resolve("ok"), "Name:\tcafé\n");
        assertEquals("Name:\tcafé\n", ProcText.read(ok));
        Path bad = Files.write(dir.resolve("bad"), new byte[] {'N', ':', (byte) 0xff, (byte) 0xfe, '\n'});
        assertThrows(IOException.class, () -> Files.readAllLines(bad), "the behaviour kept");
        assertThrows(IOException.class, () -> ProcText.read(bad));
        assertTrue(new String(Files.readAllBytes(ok), StandardCharsets.UTF_8).contains("café"));
    }

    @Test
    void aMissingFileIsAnError() {
        assertThrows(IOException.class, () -> ProcText.read(dir.resolve("absent")));
    }
}
