package io.aasm.backend.landlockseccomp.internal.launcher;

import io.aasm.backend.landlockseccomp.internal.host.LibC;
import java.util.concurrent.CompletableFuture;

/**
 * A launcher the zygote forked. The zygote reaps it and reports its wait status; until then its pid is ours,
 * so signals go through the zygote, which delivers them only to an unreaped child of its own. If the zygote
 * dies first, the launcher runs on (its own channel is still its lifeline) as an orphan: then its end is seen
 * through {@link ProcessHandle} and its exit status is known only from its status lines.
 */
final class ForkedLauncher implements LauncherHandle {
    private final long pid;
    private final Zygote zygote;
    private final CompletableFuture<Integer> status = new CompletableFuture<>();
    private volatile boolean orphaned;

    ForkedLauncher(long pid, Zygote zygote) {
        this.pid = pid;
        this.zygote = zygote;
    }

    /** From the zygote's reader: the wait status it reaped. */
    void reaped(int waitStatus) {
        int sig = waitStatus & 0x7f;
        status.complete(sig == 0 ? (waitStatus >> 8) & 0xff : 128 + sig);
    }

    /** From the zygote's reader: the zygote is gone before it reaped this launcher. */
    void orphan() {
        orphaned = true;
        ProcessHandle.of(pid).ifPresentOrElse(h -> h.onExit().thenRun(() -> status.complete(-1)),
                () -> status.complete(-1));
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public boolean isAlive() {
        return !status.isDone();
    }

    @Override
    public int waitFor() throws InterruptedException {
        try {
            return status.get();
        } catch (java.util.concurrent.ExecutionException e) {
            return -1;
        }
    }

    @Override
    public boolean signal(int signal) {
        if (status.isDone()) {
            return false;
        }
        if (orphaned) {
            // No zygote holds the pid any more: the same exposure as signalling any process by pid.
            return LibC.INSTANCE.kill((int) pid, signal) == 0;
        }
        return zygote.signal(pid, signal);
    }

    @Override
    public boolean forked() {
        return true;
    }
}
