package io.aasm.backend.landlockseccomp.internal.runtime;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Work a launch leaves that nobody waits for: removing what it made once it can no longer matter (its cgroups once
 * they are proven empty, with its generated files' folder, in one task) and making the spare groups of the next
 * launches. On this host a directory's removal waits for the file system's journal now and then (an
 * {@code rmdir} of 10 ms and more under load, docs/benchmarks.md): done here, the caller's status does not wait.
 *
 * <p>One thread, so the host's cores are not taken from launches in flight. {@link #inline()} runs every task at
 * once on the caller's thread instead (the one-shot CLI: its JVM ends with its one launch, and a task queued to a
 * daemon thread would be lost). {@link #close()} runs what is still queued before it returns.
 */
public final class Janitor implements Executor, AutoCloseable {
    private final ThreadPoolExecutor pool;

    private Janitor(ThreadPoolExecutor pool) {
        this.pool = pool;
    }

    /** Tasks run on the caller's thread, at once. */
    public static Janitor inline() {
        return new Janitor(null);
    }

    /** Tasks run on one daemon thread of this backend, in the order given. */
    public static Janitor background() {
        ThreadPoolExecutor p = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "aasm-native-janitor");
            t.setDaemon(true); // a kernel killed outright leaves its groups to the next start's reclaim (Leftovers)
            return t;
        });
        return new Janitor(p);
    }

    /** Whether tasks run after the caller went on (a launch's status may then precede its removals). */
    public boolean deferred() {
        return pool != null;
    }

    /** Runs {@code task} later, or now when inline or once closed (nothing a launch made is ever dropped). */
    @Override
    public void execute(Runnable task) {
        if (pool != null) {
            try {
                pool.execute(task);
                return;
            } catch (RejectedExecutionException closed) {
                // closing: the caller does it itself
            }
        }
        task.run();
    }

    /** Stops taking work and runs every task still queued (bounded: a stuck removal cannot hold a stop forever). */
    @Override
    public void close() {
        if (pool == null) {
            return;
        }
        pool.shutdown();
        try {
            pool.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
