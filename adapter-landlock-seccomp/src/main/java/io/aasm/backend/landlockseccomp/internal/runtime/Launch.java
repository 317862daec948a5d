package io.aasm.backend.landlockseccomp.internal.runtime;

import io.aasm.backend.landlockseccomp.internal.cgroup.CgroupPlacement;
import io.aasm.backend.landlockseccomp.internal.launcher.ExitOutcome;
import io.aasm.backend.landlockseccomp.internal.launcher.LaunchOptions;
import io.aasm.backend.landlockseccomp.internal.launcher.LauncherProcess;
import io.aasm.backend.landlockseccomp.internal.launcher.PlanMessage;
import io.aasm.backend.landlockseccomp.internal.launcher.StartOutcome;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.trace.LaunchStages;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * One prepared-then-running launch: the plan, the resources created for it, the launcher process, and
 * how it ended. Teardown (cgroups, generated files) happens exactly once, after the tree is gone.
 */
public final class Launch {
    private final LandlockSeccompPlan plan;
    private final PlanMessage message;
    private final CgroupPlacement cgroups;
    private final PreparedFiles files;
    private final Optional<CanaryWitness> canaries;
    private final Janitor janitor;
    private LauncherProcess process;
    private StartOutcome start;
    private ExitDisposition disposition;
    private boolean deadlineHit;
    private long startedAtNanos;

    public Launch(LandlockSeccompPlan plan, PlanMessage message, CgroupPlacement cgroups, PreparedFiles files) {
        this(plan, message, cgroups, files, Optional.empty());
    }

    public Launch(LandlockSeccompPlan plan, PlanMessage message, CgroupPlacement cgroups, PreparedFiles files,
                  Optional<CanaryWitness> canaries) {
        this(plan, message, cgroups, files, canaries, Janitor.inline());
    }

    /** {@code janitor}: where the removals nobody needs to wait for run (the files, the emptied cgroups). */
    public Launch(LandlockSeccompPlan plan, PlanMessage message, CgroupPlacement cgroups, PreparedFiles files,
                  Optional<CanaryWitness> canaries, Janitor janitor) {
        this.janitor = janitor;
        this.plan = plan;
        this.message = message;
        this.cgroups = cgroups;
        this.files = files;
        this.canaries = canaries;
    }

    /** The supervisor's side of the canaries this launch carried, if any. */
    public Optional<CanaryWitness> canaries() {
        return canaries;
    }

    /** Whether the tree was placed in a cgroup the supervisor empties at teardown. */
    public boolean teardownGroup() {
        return cgroups.hasTeardownGroup();
    }

    public LandlockSeccompPlan plan() {
        return plan;
    }

    public PlanMessage message() {
        return message;
    }

    /** Starts the launcher and waits for its start report. */
    public synchronized StartOutcome start(Path launcher, LaunchOptions options) throws IOException {
        startedAtNanos = System.nanoTime();
        try {
            process = LauncherProcess.start(launcher, message, options);
        } catch (IOException e) {
            release();
            throw e;
        }
        start = process.awaitStart();
        stamps(LAUNCHER_START);
        LaunchStages.mark("started");
        if (start instanceof StartOutcome.Started && canaries.isPresent()) {
            // What the launcher saw denied is checked from outside too: nothing made, nothing reached.
            Optional<String> escaped = canaries.get().escapedFromOutside();
            if (escaped.isPresent()) {
                process.terminate(false);
                start = new StartOutcome.Refused("canary_not_denied", escaped.get());
            }
        }
        canaries.ifPresent(CanaryWitness::close);
        if (!janitor.deferred()) {
            files.close(); // bound into the view (or refused): the files are no longer needed
        } // else removed with the groups, after the status, in one task of the janitor
        if (!(start instanceof StartOutcome.Started)) {
            process.waitFor(Duration.ofSeconds(5));
            process.close();
            release();
        }
        return start;
    }

    public synchronized Optional<StartOutcome> startOutcome() {
        return Optional.ofNullable(start);
    }

    public Optional<LauncherProcess> process() {
        return Optional.ofNullable(process);
    }

    public boolean deadlineHit() {
        return deadlineHit;
    }

    public Optional<ExitDisposition> disposition() {
        return Optional.ofNullable(disposition);
    }

    /** Waits for the end, enforcing the wall-clock ceiling by killing the whole tree; idempotent. */
    public ExitDisposition waitFor() {
        synchronized (this) {
            if (disposition != null) {
                return disposition;
            }
        }
        ExitOutcome out;
        if (plan.wallClockSeconds().isPresent()) {
            long budget = plan.wallClockSeconds().getAsLong() * 1_000_000_000L - (System.nanoTime() - startedAtNanos);
            Optional<ExitOutcome> o = process.waitFor(Duration.ofNanos(Math.max(budget, 0)));
            if (o.isEmpty()) {
                deadlineHit = true;
                process.terminate(false);
                out = process.waitFor();
            } else {
                out = o.get();
            }
        } else {
            out = process.waitFor();
        }
        stamps(LAUNCHER_END);
        LaunchStages.mark("launcher_exit");
        process.close();
        synchronized (this) {
            if (disposition == null) {
                disposition = map(out);
                teardown();
                LaunchStages.mark("teardown");
            }
            return disposition;
        }
    }

    /** The launcher's stamps, named as stages of the whole path ({@link LaunchStages}): key, then stage. */
    private static final String[][] LAUNCHER_START = {{"start", "launcher_exec"}, {"plan", "plan_read"},
        {"namespaces", "namespaces"}, {"init", "init"}, {"landlock", "landlock"}, {"cgroups", "cgroups"},
        {"preexec", "program_setup"}};
    private static final String[][] LAUNCHER_END = {{"exited", "program_run"}, {"reaped", "tree_reaped"}};

    private void stamps(String[][] names) {
        if (LaunchStages.enabled()) {
            var s = process.stamps();
            for (String[] n : names) {
                LaunchStages.mark(n[1], s.getOrDefault(n[0], 0L));
            }
        }
    }

    private ExitDisposition map(ExitOutcome out) {
        if (deadlineHit) {
            return new ExitDisposition.Signalled(9);
        }
        if (out instanceof ExitOutcome.Exited e) {
            return new ExitDisposition.Exited(e.code());
        }
        if (out instanceof ExitOutcome.Signalled s) {
            return new ExitDisposition.Signalled(s.signal());
        }
        if (out instanceof ExitOutcome.NeverStarted n) {
            return notStarted(n.why());
        }
        ExitOutcome.LauncherFailed f = (ExitOutcome.LauncherFailed) out;
        return f.launcherStatus() > 128 ? new ExitDisposition.Signalled(f.launcherStatus() - 128)
                : new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR, f.detail());
    }

    public static ExitDisposition.NotStarted notStarted(StartOutcome why) {
        if (why instanceof StartOutcome.Refused r) {
            return new ExitDisposition.NotStarted(LaunchFailureKind.BOUNDARY_REFUSED, r.reason() + ": " + r.detail());
        }
        if (why instanceof StartOutcome.ExecFailed e) {
            return new ExitDisposition.NotStarted(e.shellStatus() == 127 ? LaunchFailureKind.NOT_FOUND
                    : LaunchFailureKind.NOT_EXECUTABLE, "execve failed with errno " + e.errno());
        }
        return new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR, why.toString());
    }

    public synchronized void terminate(boolean graceful) {
        if (process != null && disposition == null) {
            process.terminate(graceful);
        }
    }

    /** Releases the launch's resources; cgroup members still present are killed first. */
    public synchronized void release() {
        canaries.ifPresent(CanaryWitness::close);
        cgroups.close();
        files.close(); // idempotent: nothing is left to remove after the first
    }

    /**
     * After the launcher's end: the tree is killed and every group proven empty before this returns (so the status
     * that follows is final); with a deferred janitor the empty groups' removal runs after it, off the caller's path.
     */
    private void teardown() {
        if (!janitor.deferred()) {
            release();
            return;
        }
        canaries.ifPresent(CanaryWitness::close);
        Runnable groups = cgroups.emptied();
        janitor.execute(() -> {
            groups.run();
            files.close();
        });
    }
}
