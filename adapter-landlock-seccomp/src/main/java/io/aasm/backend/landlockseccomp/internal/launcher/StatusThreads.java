package io.aasm.backend.landlockseccomp.internal.launcher;

import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads that read launchers' status channels, kept for a while between launches instead of one started and
 * ended per launch: on a host where a thread's stack mapping and unmapping are page-table changes the hypervisor
 * sees (a paravirtualized guest), a thread created and exited per launch cost about 1 ms of the kernel's CPU.
 *
 * <p>Still one thread per running launch, as before: a reader blocks until its launcher ends, so a bounded pool could
 * leave a launch's status unread behind others that are still running. A thread idle for {@link #KEEP_SECONDS} ends,
 * so an idle resident kernel holds none (its idle collector starts later than that).
 */
final class StatusThreads {
    static final int KEEP_SECONDS = 20;

    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_SECONDS,
            TimeUnit.SECONDS, new SynchronousQueue<>(), StatusThreads::daemon);

    private StatusThreads() {
    }

    /** Runs {@code reader} on a kept thread, named for the launcher while it reads. */
    static void read(Runnable reader, long launcherPid) {
        POOL.execute(() -> {
            Thread self = Thread.currentThread();
            self.setName("aasm-launch-status-" + launcherPid);
            try {
                reader.run();
            } finally {
                self.setName("aasm-launch-status-idle");
            }
        });
    }

    /** How many reader threads exist now, busy or idle (for tests). */
    static int threads() {
        return POOL.getPoolSize();
    }

    private static Thread daemon(Runnable r) {
        Thread t = new Thread(r, "aasm-launch-status-idle");
        t.setDaemon(true);
        return t;
    }
}
