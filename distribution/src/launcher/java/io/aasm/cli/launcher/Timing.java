package io.aasm.cli.launcher;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code -Daasm.timing=true}: where a run's wall time goes, printed on stderr at exit. */
final class Timing {
    private static final boolean ON = Boolean.getBoolean("aasm.timing");
    private static final List<String> MARKS = new ArrayList<>();
    private static long last = System.nanoTime();

    private Timing() {
    }

    static void jvmStarted() {
        if (ON) {
            Instant start = ProcessHandle.current().info().startInstant().orElse(Instant.now());
            MARKS.add(String.format("%-22s %5d ms", "jvm start -> main", Duration.between(start, Instant.now()).toMillis()));
            last = System.nanoTime();
        }
    }

    static void mark(String phase) {
        if (ON) {
            long now = System.nanoTime();
            MARKS.add(String.format("%-22s %5d ms", phase, (now - last) / 1_000_000));
            last = now;
        }
    }

    static void print(PrintStream err) {
        if (ON) {
            MARKS.forEach(m -> err.println("aasm: timing: " + m));
        }
    }
}
