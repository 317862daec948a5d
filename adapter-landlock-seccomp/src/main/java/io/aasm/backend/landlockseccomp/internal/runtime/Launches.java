package io.aasm.backend.landlockseccomp.internal.runtime;

import io.aasm.backend.landlockseccomp.internal.cgroup.CgroupPlacement;
import io.aasm.backend.landlockseccomp.internal.cgroup.CgroupSpares;
import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.backend.landlockseccomp.internal.host.LibC;
import io.aasm.backend.landlockseccomp.internal.launcher.LaunchOptions;
import io.aasm.backend.landlockseccomp.internal.launcher.LauncherBinary;
import io.aasm.backend.landlockseccomp.internal.launcher.StartOutcome;
import io.aasm.backend.landlockseccomp.internal.launcher.ZygoteSupply;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.trace.LaunchStages;
import io.aasm.ports.transport.MediationSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Makes what one lowered plan needs outside the program (its cgroup, its generated files, the wire
 * message) and starts the launcher on it. A failure releases whatever was made.
 */
public final class Launches {
    private final HostFacts facts;
    private final LauncherBinary launcher;
    private final Path stateDir;
    private final Optional<ZygoteSupply> zygote;
    private final Janitor background;
    private final Janitor teardown;
    private final CgroupSpares spares;

    public Launches(HostFacts facts, LauncherBinary launcher, Path stateDir) {
        this(facts, launcher, stateDir, false);
    }

    /** {@code zygote}: fork launchers from a pre-started one (the resident kernel) instead of executing each. */
    public Launches(HostFacts facts, LauncherBinary launcher, Path stateDir, boolean zygote) {
        this(facts, launcher, stateDir, zygote, Housekeeping.inline());
    }

    /** {@code housekeeping}: cgroups made ahead, removals after the status (the resident kernel). */
    public Launches(HostFacts facts, LauncherBinary launcher, Path stateDir, boolean zygote, Housekeeping housekeeping) {
        this.facts = facts;
        this.launcher = launcher;
        this.stateDir = stateDir;
        this.zygote = zygote ? Optional.of(new ZygoteSupply(launcher.path())) : Optional.empty();
        this.background = housekeeping.background() ? Janitor.background() : Janitor.inline();
        this.teardown = housekeeping.teardownAfter() ? background : Janitor.inline();
        this.spares = housekeeping.cgroupSpares() > 0 ? CgroupSpares.ahead(housekeeping.cgroupSpares(), background)
                : CgroupSpares.none();
    }

    /** The spare groups (tests count them). */
    public CgroupSpares spares() {
        return spares;
    }

    /**
     * The backend stops: the queued removals run, then the spare groups never used are removed (a kernel that stops
     * leaves no group behind). Launches still running keep their own groups and remove them as they end.
     */
    public void close() {
        background.close();
        spares.close();
    }

    /** The zygote, when launches use one (tests end it to check that launches go on). */
    public Optional<ZygoteSupply> zygote() {
        return zygote;
    }

    public Launch prepare(LandlockSeccompPlan plan) throws LaunchException {
        return prepare(plan, Optional.empty());
    }

    /** {@code mediation}: the session a plan with a proxy port relays to (its endpoint and environment). */
    public Launch prepare(LandlockSeccompPlan plan, Optional<MediationSession> mediation) throws LaunchException {
        CgroupPlacement cg = CgroupPlacement.none();
        PreparedFiles files = PreparedFiles.none();
        Optional<CanaryWitness> canaries = Optional.empty();
        LaunchStages.mark("prepare_checks"); // the kernel's and the backend's checks before this
        try {
            // The teardown group only as real root: joining a cgroup2 group unprivileged depends on delegation
            // rules a failed join would turn into a refused launch.
            cg = CgroupPlacement.create(facts.cgroups(), plan.cgroupLimits(), LibC.INSTANCE.geteuid() == 0, spares);
            LaunchStages.mark("prepare_cgroups");
            files = PreparedFiles.create(plan, stateDir);
            LaunchStages.mark("prepare_files");
            canaries = CanaryWitness.open(plan.canaries(), files);
            LaunchStages.mark("prepare_witness");
            var message = MessageMapper.map(plan, cg, files, canaries, LibC.INSTANCE.geteuid(),
                    LibC.INSTANCE.getegid(), mediation);
            return new Launch(plan, message, cg, files, canaries, teardown);
        } catch (IOException | RuntimeException e) {
            canaries.ifPresent(CanaryWitness::close);
            cg.close();
            files.close();
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "preparing the launch failed: "
                    + e.getMessage(), e);
        }
    }

    /** Starts the launcher; returns once the program has been exec'd, or throws why it was not. */
    public void start(Launch launch, LaunchOptions options) throws LaunchException {
        StartOutcome out;
        try {
            out = launch.start(launcher.path(), options.withZygote(zygote));
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "starting the launcher failed: "
                    + e.getMessage(), e);
        }
        if (out instanceof StartOutcome.Started) {
            return;
        }
        ExitDisposition.NotStarted ns = Launch.notStarted(out);
        throw new LaunchException(ns.kind(), "launcher: " + ns.detail() + hint(launch, out));
    }

    /** An exec that failed inside a confined filesystem most often failed for want of a grant: say so. */
    private static String hint(Launch launch, StartOutcome out) {
        boolean confinedFs = launch.plan().landlock().map(l -> l.handledFs() != 0).orElse(false);
        if (!(out instanceof StartOutcome.ExecFailed f) || !confinedFs) {
            return "";
        }
        if (f.errno() == StartOutcome.ExecFailed.EACCES) {
            return " (EACCES: the program, its interpreter or its libraries may lie outside the filesystem read grants)";
        }
        if (f.errno() == StartOutcome.ExecFailed.ENOENT) {
            return " (ENOENT: paths outside the filesystem grants do not exist inside the boundary; the program, its "
                    + "interpreter or its libraries may lie outside the read grants)";
        }
        return "";
    }
}
