package io.aasm.cli.boot;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** {@code -Daasm.timing=true}: where a run's wall time goes, printed on stderr at exit. */
final class Timing {
    private static final boolean ON = Boolean.getBoolean("aasm.timing");
    private static final List<String> MARKS = new ArrayList<>();
    private static long last = System.nanoTime();

    private Timing() {
    }

    /**
     * JVM start to main(), from /proc (process start in clock ticks and uptime, both since boot);
     * ProcessHandle's start instant is built on the boot time in whole seconds and can be off by 1 s.
     */
    static void jvmStarted() {
        if (ON) {
            try {
                String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                double startSec = Long.parseLong(f[19]) / 100.0;
                double upSec = Double.parseDouble(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/uptime"))
                        .split(" ")[0]);
                MARKS.add(String.format("%-22s %5d ms", "process start -> main", Math.round((upSec - startSec) * 1000)));
            } catch (java.io.IOException | RuntimeException e) {
                MARKS.add("process start -> main  unknown (" + e + ")");
            }
            last = System.nanoTime();
        }
    }

    /** Only when timing is on: one line per bundle start slower than 5 ms. */
    static void bundle(String name, long nanos) {
        if (ON && nanos > 5_000_000) {
            MARKS.add(String.format("  start %-32s %5d ms", name, nanos / 1_000_000));
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
