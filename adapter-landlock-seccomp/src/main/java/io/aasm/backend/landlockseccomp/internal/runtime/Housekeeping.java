package io.aasm.backend.landlockseccomp.internal.runtime;

/**
 * What the backend does ahead of and after launches, off their path: {@code cgroupSpares} fresh groups per hierarchy
 * made ahead ({@code -Daasm.native.cgroupSpares=N}, 0 for none), and {@code teardownAfter}: the removal of a launch's
 * emptied groups and of its generated files left to a background thread ({@code -Daasm.native.teardownAfter=
 * true|false}). Off unless set: in the one quiet paired run the resident kernel's throughput at 8 clients fell with
 * them and its CPU per launch rose (docs/benchmarks.md), so they wait for a quiet paired verdict. {@code resident}
 * is kept for that decision: a one-shot CLI should never use them (a spare would be made only to be removed, and a
 * removal queued to a daemon thread could be cut off by the JVM's exit).
 */
public record Housekeeping(int cgroupSpares, boolean teardownAfter) {
    static final int SPARES = 4;
    /** Whether the resident kernel uses them unless told otherwise. */
    static final boolean DEFAULT_ON = false;

    /** Nothing ahead, everything removed before the launch's status (the one-shot CLI, the tests' default). */
    public static Housekeeping inline() {
        return new Housekeeping(0, false);
    }

    /** The switches, else off (the resident kernel included, until a quiet paired run says otherwise). */
    public static Housekeeping of(boolean resident) {
        String spares = System.getProperty("aasm.native.cgroupSpares", "").trim();
        String after = System.getProperty("aasm.native.teardownAfter", "").trim();
        boolean byDefault = resident && DEFAULT_ON;
        return new Housekeeping(spares.isEmpty() ? (byDefault ? SPARES : 0) : count(spares),
                after.isEmpty() ? byDefault : Boolean.parseBoolean(after));
    }

    /** A typo never means a default: the backend does not start, and the message names the property. */
    private static int count(String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        throw new IllegalArgumentException("-Daasm.native.cgroupSpares must be a whole number of 0 or more, not '"
                + v + "'");
    }

    /** Whether a background thread is needed at all. */
    public boolean background() {
        return cgroupSpares > 0 || teardownAfter;
    }
}
