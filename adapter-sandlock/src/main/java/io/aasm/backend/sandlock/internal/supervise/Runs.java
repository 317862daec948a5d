package io.aasm.backend.sandlock.internal.supervise;

import io.aasm.backend.sandlock.internal.guard.GuardBinary;
import io.aasm.backend.sandlock.internal.guard.GuardProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Starts runs under a verified guard, each in a fresh cgroup where one can be created, after
 * reclaiming the groups that killed predecessors left behind. Shared by launches and probes.
 */
public final class Runs {
    /** Where the program's standard streams go. */
    public record Stdio(ProcessBuilder.Redirect in, ProcessBuilder.Redirect out, ProcessBuilder.Redirect err) {
        public static Stdio inherit() {
            return new Stdio(ProcessBuilder.Redirect.INHERIT, ProcessBuilder.Redirect.INHERIT,
                    ProcessBuilder.Redirect.INHERIT);
        }

        /** Output and errors to one file, no input: for probes. */
        public static Stdio toFile(Path file) {
            return new Stdio(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")),
                    ProcessBuilder.Redirect.to(file.toFile()), ProcessBuilder.Redirect.appendTo(file.toFile()));
        }
    }

    private final Optional<GuardBinary> guard;
    private final String guardMissing;
    private final Cgroups cgroups;
    private final ScheduledExecutorService timers;
    private final long graceMillis;

    public Runs(Optional<GuardBinary> guard, String guardMissing, Cgroups cgroups, ScheduledExecutorService timers,
                long graceMillis) {
        this.guard = guard;
        this.guardMissing = guardMissing;
        this.cgroups = cgroups;
        this.timers = timers;
        this.graceMillis = graceMillis;
    }

    /** Why no run can start, when the bundle carries no guard for this platform. */
    public Optional<String> unavailable() {
        return guard.isPresent() ? Optional.empty() : Optional.of(guardMissing);
    }

    public Cgroups cgroups() {
        return cgroups;
    }

    /**
     * Starts {@code argv} (sandlock's, or any absolute command for self-checks) with exactly {@code env}.
     * The guard's binary is verified against its digest immediately before this start.
     */
    public SandlockRun start(List<String> argv, Map<String, String> env, Path cwd, Stdio stdio,
                             OptionalLong deadlineMillis) throws IOException {
        if (guard.isEmpty()) {
            throw new IOException(guardMissing);
        }
        Path binary = guard.get().verified();
        cgroups.reclaim();
        Optional<Path> group = cgroups.create();
        return SandlockRun.start(new GuardProcess.Start(binary, group, argv, env, cwd, stdio.in(), stdio.out(),
                stdio.err()), deadlineMillis, timers, graceMillis);
    }
}
