package io.aasm.backend.sandlock.internal.supervise;

import io.aasm.backend.sandlock.internal.guard.GuardProcess;
import io.aasm.backend.sandlock.internal.guard.GuardReport;
import io.aasm.ports.backend.TerminationRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One sandlock run under its guard: the deadline, termination requests, and the end. By the time
 * {@link #waitFor()} returns, the guard has killed every process of the tree and its cgroup is gone.
 */
public final class SandlockRun {
    /** What happened, for the disposition and the evidence. */
    public record Ended(ExitMapping.Mapped mapped, GuardReport report, ExitMapping.Requested requested,
                        Optional<Path> cgroup) {
    }

    private final GuardProcess guard;
    private final Optional<Path> cgroup;
    private final ScheduledExecutorService timers;
    private final long graceMillis;
    private final CompletableFuture<Ended> ended = new CompletableFuture<>();
    private volatile ExitMapping.Requested requested = ExitMapping.Requested.NONE;
    private volatile ScheduledFuture<?> deadline;

    private SandlockRun(GuardProcess guard, Optional<Path> cgroup, ScheduledExecutorService timers, long graceMillis) {
        this.guard = guard;
        this.cgroup = cgroup;
        this.timers = timers;
        this.graceMillis = graceMillis;
    }

    /** Starts the guard (which starts sandlock); the deadline, when given, counts from now. */
    public static SandlockRun start(GuardProcess.Start start, OptionalLong deadlineMillis,
                                    ScheduledExecutorService timers, long graceMillis) throws IOException {
        GuardProcess g;
        try {
            g = GuardProcess.start(start);
        } catch (IOException e) {
            start.cgroup().ifPresent(Cgroups::remove);
            throw e;
        }
        SandlockRun run = new SandlockRun(g, start.cgroup(), timers, graceMillis);
        deadlineMillis.ifPresent(ms -> run.deadline = timers.schedule(run::deadlineReached, ms, TimeUnit.MILLISECONDS));
        Thread waiter = new Thread(run::finish, "aasm-sandlock-run-" + g.pid());
        waiter.setDaemon(true);
        waiter.start();
        return run;
    }

    private void deadlineReached() {
        if (!ended.isDone()) {
            requested = ExitMapping.Requested.DEADLINE;
            guard.send("kill");
        }
    }

    private void finish() {
        try {
            GuardReport r = guard.awaitEnd();
            if (deadline != null) {
                deadline.cancel(false);
            }
            // The guard removes the group itself; if it was killed before it could, nothing else will.
            cgroup.ifPresent(Cgroups::empty);
            ExitMapping.Requested req = requested;
            ended.complete(new Ended(ExitMapping.map(r, req), r, req, cgroup));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended.completeExceptionally(e);
        } catch (RuntimeException e) {
            ended.completeExceptionally(e);
        }
    }

    public Ended waitFor() throws InterruptedException {
        try {
            return ended.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("supervision failed: " + e.getCause(), e.getCause());
        }
    }

    public boolean finished() {
        return ended.isDone();
    }

    /** The guard's report so far (the descriptor inventory arrives before sandlock starts). */
    public GuardReport report() {
        return guard.snapshot();
    }

    public long guardPid() {
        return guard.pid();
    }

    public Optional<Path> cgroup() {
        return cgroup;
    }

    /**
     * Graceful: SIGTERM to every process of the tree except sandlock (so sandlock reports the program's
     * signal), then the whole tree killed after the grace period. Immediate: the whole tree killed now.
     */
    public boolean terminate(TerminationRequest request) {
        if (ended.isDone()) {
            return false;
        }
        if (request == TerminationRequest.IMMEDIATE) {
            requested = ExitMapping.Requested.KILL;
            return guard.send("kill");
        }
        if (requested == ExitMapping.Requested.NONE) {
            requested = ExitMapping.Requested.TERM;
        }
        boolean sent = guard.send("term");
        timers.schedule(() -> {
            if (!ended.isDone()) {
                requested = ExitMapping.Requested.KILL;
                guard.send("kill");
            }
        }, graceMillis, TimeUnit.MILLISECONDS);
        return sent;
    }

    /** The caller's terminal changed size: the guard resizes the launch's own terminal (if it made one). */
    public boolean winch() {
        return !ended.isDone() && guard.send("winch");
    }

    /** Cuts the lifeline (the guard kills whatever is left); for deactivation. */
    public void abandon() {
        guard.close();
    }
}
