package io.aasm.cli.internal.resident;

import java.util.function.IntSupplier;

/**
 * Gives back, once the kernel has gone quiet after a burst of launches, the heap the burst made it grow (issue 18:
 * a daemon that sits on a laptop all day). Under many clients the serial collector promotes requests' garbage
 * into the old generation and grows it (measured: 9 to 23 MiB committed for a live set that a full collection
 * brings back to 8 MiB); it shrinks the old generation only at a full collection, and a kernel that goes quiet
 * collects nothing more. So when no connection has been open for the quiet period, this runs {@link #COLLECTIONS}
 * full collections, once per burst: the collector shrinks in steps (0 %, 10 %, 40 %, then all of the excess, at
 * consecutive full collections), so four reach the size the free-ratio options ask for; at a live set of about
 * 6–8 MiB the four cost about 100 ms of CPU (measured in docs/resident.md), spent while nothing else runs, and a
 * connection that arrives meanwhile stops the rest (they come again after the next quiet period). A kernel that
 * stays idle is never woken by it: it waits for activity before it waits for quiet. After a whole sequence it runs
 * {@code giveBack} once (the C library's heap trimmed: {@link NativeHeapTrim}); a sequence a connection stopped does
 * not, so a client that arrived during the collections is not made to wait for a trim as well.
 *
 * <p>{@code -Daasm.resident.idle.gc.seconds=N} sets the quiet period (default {@value #DEFAULT_SECONDS}: past the
 * connection threads' 30 s keep-alive, so their stacks are gone too); {@code 0} turns it off, the trim with it.
 */
final class IdleCollector implements Runnable {
    static final String PROPERTY = "aasm.resident.idle.gc.seconds";
    static final long DEFAULT_SECONDS = 35;
    static final int COLLECTIONS = 4;

    private final long quietNanos;
    private final IntSupplier openConnections;
    private final Runnable collect;
    private final Runnable giveBack;
    private long lastActivity;
    private boolean dirty;

    IdleCollector(long quietNanos, IntSupplier openConnections, Runnable collect, Runnable giveBack) {
        this.quietNanos = quietNanos;
        this.openConnections = openConnections;
        this.collect = collect;
        this.giveBack = giveBack;
    }

    /** The quiet period in seconds from the system property, or 0 (off); a bad value is refused by name. */
    static long quietSeconds(String value) {
        if (value == null) {
            return DEFAULT_SECONDS;
        }
        try {
            long s = Long.parseLong(value.trim());
            if (s >= 0) {
                return s;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(PROPERTY + " must be a whole number of seconds (0: off), not '" + value
                + "'");
    }

    /** Starts the collector's thread unless switched off; returns it, or null. */
    static Thread startIfEnabled(IdleCollector c) {
        if (c.quietNanos <= 0) {
            return null;
        }
        Thread t = new Thread(c, "aasm-resident-idle-gc");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
        return t;
    }

    /** One full collection; {@link #run} asks for {@link #COLLECTIONS} of them (the class comment says why). */
    static void collectOnce() {
        System.gc();
    }

    private synchronized boolean isDirty() {
        return dirty;
    }

    /** A connection was accepted or ended: the quiet period starts again from now. */
    synchronized void activity() {
        lastActivity = System.nanoTime();
        dirty = true;
        notifyAll();
    }

    /**
     * Milliseconds still to wait before collecting, or 0 when it is due: only after activity, with no connection
     * open, and the quiet period passed since the last activity. A connection held open (a long launch) defers it
     * by another quiet period.
     */
    static long waitMillis(boolean dirty, long lastActivity, long now, int open, long quietNanos) {
        if (!dirty) {
            return Long.MAX_VALUE;
        }
        long left = lastActivity + quietNanos - now;
        if (open > 0) {
            left = Math.max(left, quietNanos);
        }
        return left <= 0 ? 0 : Math.max(1, left / 1_000_000);
    }

    @Override
    public void run() {
        try {
            for (;;) {
                synchronized (this) {
                    long w;
                    while ((w = waitMillis(dirty, lastActivity, System.nanoTime(), openConnections.getAsInt(),
                            quietNanos)) > 0) {
                        if (w == Long.MAX_VALUE) {
                            wait();
                        } else {
                            wait(w);
                        }
                    }
                    dirty = false;
                }
                int i = 0;
                for (; i < COLLECTIONS && !isDirty(); i++) {
                    collect.run(); // a connection meanwhile stops the rest: its requests are not held up by them
                }
                if (i == COLLECTIONS && !isDirty()) {
                    giveBack.run(); // what the collections freed, out of the malloc arenas
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the server closes: nothing more to give back
        }
    }
}
