package io.aasm.ports.trace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One clock for the whole launch path. A front end opens a trace on the thread that serves a request
 * ({@link #begin}); each part it crosses marks the moment one of its stages ended ({@link #mark}); the front
 * end then appends the trace as one JSON line to the file named by the system property
 * {@value #PROPERTY} ({@link #finish}). Every time is {@link System#nanoTime()}, which on Linux is
 * {@code CLOCK_MONOTONIC}: the launcher's own stamps (another process) are on the same clock and are marked
 * with their own times. Without the property every call returns at once and nothing is kept: the
 * instrument costs nothing on a launch that is not measured.
 */
public final class LaunchStages {
    /** The system property naming the file traces are appended to. */
    public static final String PROPERTY = "aasm.stages.file";
    private static final Path FILE = fileOf(System.getProperty(PROPERTY));
    private static final ThreadLocal<List<Object[]>> CURRENT = new ThreadLocal<>();

    private LaunchStages() {
    }

    private static Path fileOf(String p) {
        return p == null || p.isBlank() ? null : Path.of(p);
    }

    /** Whether traces are being taken at all. */
    public static boolean enabled() {
        return FILE != null;
    }

    /** Opens this thread's trace; {@code startNanos} is when the request began (e.g. its accept). */
    public static void begin(String stage, long startNanos) {
        if (FILE != null) {
            List<Object[]> t = new ArrayList<>();
            t.add(new Object[] {stage, startNanos});
            CURRENT.set(t);
        }
    }

    /** The stage named {@code stage} ended now. */
    public static void mark(String stage) {
        if (FILE != null) {
            mark(stage, System.nanoTime());
        }
    }

    /** The stage named {@code stage} ended at {@code nanos} (CLOCK_MONOTONIC); ignored without an open trace. */
    public static void mark(String stage, long nanos) {
        List<Object[]> t = FILE == null ? null : CURRENT.get();
        if (t != null && nanos > 0) {
            t.add(new Object[] {stage, nanos});
        }
    }

    /** Appends this thread's trace (stages in time order, microseconds from its start) and closes it. */
    public static void finish() {
        List<Object[]> t = FILE == null ? null : CURRENT.get();
        CURRENT.remove();
        if (t == null) {
            return;
        }
        long origin = (long) t.get(0)[1];
        t.sort((a, b) -> Long.compare((long) a[1], (long) b[1]));
        StringBuilder line = new StringBuilder("{");
        for (int i = 0; i < t.size(); i++) {
            line.append(i == 0 ? "" : ",").append('"').append(t.get(i)[0]).append("\":")
                    .append(((long) t.get(i)[1] - origin) / 1000);
        }
        line.append("}\n");
        synchronized (LaunchStages.class) {
            try {
                Files.write(FILE, line.toString().getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            } catch (IOException e) {
                // a measurement that cannot be written never fails a launch
            }
        }
    }
}
