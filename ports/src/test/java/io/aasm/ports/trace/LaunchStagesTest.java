package io.aasm.ports.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stage clock writes one line per trace, in time order, only when asked to; off, it writes nothing. */
class LaunchStagesTest {
    @TempDir
    Path dir;

    private String run(List<String> props) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(props);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LaunchStagesMain.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void aTraceIsOneLineInTimeOrderFromItsStart() throws Exception {
        Path file = dir.resolve("stages.jsonl");
        assertEquals("true", run(List.of("-D" + LaunchStages.PROPERTY + "=" + file)));
        // the mark of another thread, the zero stamp and the mark after finish() belong to no trace
        assertEquals(List.of("{\"accept\":0,\"early\":1000,\"late\":3000}"), Files.readAllLines(file));
    }

    @Test
    void offByDefaultAndThenWritesNothing() throws Exception {
        Path file = dir.resolve("stages.jsonl");
        assertEquals("false", run(List.of()));
        assertFalse(Files.exists(file));
        try (var s = Files.list(dir)) {
            assertEquals(0, s.count(), "nothing may be written anywhere");
        }
    }
}
