package io.aasm.cli.boot;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code -Daasm.timing=true}: where a run's wall time goes, printed on stderr at exit, and where its CPU time goes
 * (user + system of the whole JVM, every thread, from {@code /proc/self/stat}, in 10 ms clock ticks) on lines of
 * their own ({@code aasm: timing-cpu:}), so the wall lines keep their form for the tools that read them. On a
 * shared machine the CPU lines are the robust figure: another process's load stretches wall time, not these.
 */
final class Timing {
    private static final boolean ON = Boolean.getBoolean("aasm.timing");
    private static final List<String> MARKS = new ArrayList<>();
    private static final List<String> CPU = new ArrayList<>();
    private static long last = System.nanoTime();
    private static long lastCpuMs;

    private Timing() {
    }

    /**
     * JVM start to main(), from /proc (process start in clock ticks and uptime, both since boot);
     * ProcessHandle's start instant is built on the boot time in whole seconds and can be off by 1 s.
     */
    static void jvmStarted() {
        if (ON) {
            try {
                String[] f = stat();
                double startSec = Long.parseLong(f[19]) / 100.0;
                double upSec = Double.parseDouble(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/uptime"))
                        .split(" ")[0]);
                MARKS.add(String.format("%-22s %5d ms", "process start -> main", Math.round((upSec - startSec) * 1000)));
                lastCpuMs = cpuMs(f);
                CPU.add(String.format("%-22s %5d ms", "process start -> main", lastCpuMs));
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
            try {
                long cpu = cpuMs(stat());
                CPU.add(String.format("%-22s %5d ms", phase, cpu - lastCpuMs));
                lastCpuMs = cpu;
            } catch (java.io.IOException | RuntimeException e) {
                CPU.add(phase + "  unknown (" + e + ")");
            }
        }
    }

    static void print(PrintStream err) {
        if (ON) {
            MARKS.forEach(m -> err.println("aasm: timing: " + m));
            CPU.forEach(m -> err.println("aasm: timing-cpu: " + m));
        }
    }

    /** The fields of /proc/self/stat after the command name (field 3 of proc(5) is index 0). */
    private static String[] stat() throws java.io.IOException {
        String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /** utime + stime (fields 14 and 15) in ms, at the usual 100 clock ticks a second. */
    private static long cpuMs(String[] f) {
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
    }
}
