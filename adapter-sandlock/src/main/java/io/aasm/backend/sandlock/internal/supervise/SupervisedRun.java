package io.aasm.backend.sandlock.internal.supervise;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One running sandlock and its tree. When sandlock ends — by itself, at the deadline or on request —
 * the whole tree is killed before {@link #waitFor()} returns, so nothing the program started
 * outlives the launch.
 */
public final class SupervisedRun {
    /** How a run was launched; {@code stdout} null means inherit the caller's streams. */
    public record Launch(List<String> argv, Map<String, String> environment, Path workingDirectory,
                         OptionalLong deadlineMillis, Path stdout) {
        public Launch {
            argv = List.copyOf(argv);
            environment = Map.copyOf(environment);
        }
    }

    /** What happened, for evidence: the disposition plus teardown facts. */
    public record Ended(ExitDisposition disposition, boolean deadlineReached, int descendantsKilled) {
    }

    private final Process process;
    private final TreeTracker tracker;
    private final ScheduledExecutorService timers;
    private final long graceMillis;
    private final CompletableFuture<Ended> ended = new CompletableFuture<>();
    private volatile boolean deadlineReached;
    private volatile int signalSent;
    private ScheduledFuture<?> deadline;

    private SupervisedRun(Process process, TreeTracker tracker, ScheduledExecutorService timers, long graceMillis) {
        this.process = process;
        this.tracker = tracker;
        this.timers = timers;
        this.graceMillis = graceMillis;
    }

    public static SupervisedRun start(Launch launch, TreeTracker tracker, ScheduledExecutorService timers,
                                      long graceMillis) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(tracker.wrap(launch.argv())).directory(launch.workingDirectory().toFile());
        // Sandlock inherits its environment to the program (no --env, so no value on any command line):
        // start it with exactly the delegated names.
        pb.environment().clear();
        pb.environment().putAll(launch.environment());
        if (launch.stdout() == null) {
            pb.inheritIO();
        } else {
            pb.redirectOutput(launch.stdout().toFile()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            tracker.close();
            throw e;
        }
        SupervisedRun run = new SupervisedRun(p, tracker, timers, graceMillis);
        tracker.started(p.toHandle());
        launch.deadlineMillis().ifPresent(ms -> run.deadline = timers.schedule(run::deadlineReached, ms,
                TimeUnit.MILLISECONDS));
        // Teardown may take a moment (killing, waiting for the group to empty): its own thread, not a shared pool.
        p.onExit().thenRunAsync(run::finish, task -> {
            Thread t = new Thread(task, "aasm-sandlock-teardown");
            t.setDaemon(true);
            t.start();
        });
        return run;
    }

    private void deadlineReached() {
        deadlineReached = true;
        tracker.killAll();
        process.destroyForcibly();
    }

    private void finish() {
        try {
            if (deadline != null) {
                deadline.cancel(false);
            }
            // Sandlock 0.8.6 leaves background descendants running after it exits (upstream #251): sweep them.
            int killed = tracker.killAll();
            int code = process.exitValue();
            ExitDisposition d;
            if (deadlineReached) {
                d = new ExitDisposition.Signalled(9);
            } else if (signalSent != 0 && code == 128 + signalSent) {
                d = new ExitDisposition.Signalled(signalSent);
            } else {
                d = new ExitDisposition.Exited(code);
            }
            ended.complete(new Ended(d, deadlineReached, killed));
        } catch (RuntimeException e) {
            ended.completeExceptionally(e);
        } finally {
            tracker.close();
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

    public boolean terminate(TerminationRequest request) {
        if (ended.isDone()) {
            return false;
        }
        if (request == TerminationRequest.IMMEDIATE) {
            signalSent = 9;
            tracker.killAll();
            process.destroyForcibly();
            return true;
        }
        signalSent = 15;
        tracker.terminateAll();
        process.destroy();
        timers.schedule(() -> {
            if (!ended.isDone()) {
                signalSent = 9;
                tracker.killAll();
                process.destroyForcibly();
            }
        }, graceMillis, TimeUnit.MILLISECONDS);
        return true;
    }
}
