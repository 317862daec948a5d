package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.canary.CanaryBait;
import io.aasm.backend.sandlock.internal.canary.CanaryChoice;
import io.aasm.backend.sandlock.internal.discovery.Discovered;
import io.aasm.backend.sandlock.internal.harden.AuthorityDrop;
import io.aasm.backend.sandlock.internal.harden.ProgramFilter;
import io.aasm.backend.sandlock.internal.harden.ReadOnlyView;
import io.aasm.backend.sandlock.internal.lower.AbsentLowering;
import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.backend.sandlock.internal.lower.OwnPaths;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.lower.SandlockCommand;
import io.aasm.backend.sandlock.internal.supervise.Runs;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/** Turns a negotiated plan into a checked sandlock command line; nothing runs here. */
final class Launches {
    /** A fully prepared launch: the argv, the program's stdio, the wall clock, and setup evidence. */
    record Prepared(EnforcementPlan plan, Discovered.Found sandlock, SandlockCommand.Built command,
                    OptionalLong wallClockSeconds, Runs.Stdio stdio, List<EvidenceRecord> setup,
                    List<CapabilityDomain> installed, Optional<String> sandboxName, Optional<AuthorityDrop> drop,
                    List<String> guardOptions, Optional<CanaryBait> canaries) {
        Prepared {
            setup = List.copyOf(setup);
            installed = List.copyOf(installed);
            guardOptions = List.copyOf(guardOptions);
        }
    }

    private final RequirementLowerer lowerer;
    private final java.util.function.Supplier<Optional<String>> names;
    private final java.util.function.Supplier<Optional<Path>> guard;
    private final List<String> ownState;
    private final java.util.function.Supplier<Path> stateRoot;
    private final Optional<Path> canaryRoot;

    /**
     * {@code guard}: the verified guard executable, which is also the program's shim inside the sandbox;
     * {@code ownState}: the backend's own files, protected like aasm's paths; {@code canaryRoot}: where the
     * canaries' folders are made (inside the own state, outside every grant), empty when canaries are off.
     */
    Launches(RequirementLowerer lowerer, java.util.function.Supplier<Optional<String>> names,
             java.util.function.Supplier<Optional<Path>> guard, List<String> ownState,
             java.util.function.Supplier<Path> stateRoot, Optional<Path> canaryRoot) {
        this.lowerer = lowerer;
        this.names = names;
        this.guard = guard;
        this.ownState = List.copyOf(ownState);
        this.stateRoot = stateRoot;
        this.canaryRoot = canaryRoot;
    }

    /** {@code lowered}: each requirement's lowering, as {@code plan()} made it (lowered again only if absent). */
    Prepared prepare(EnforcementPlan plan, Discovered discovered,
                     java.util.function.Function<ControlRequirement, Optional<DomainLowering>> planned,
                     Optional<AuthorityDrop> drop) throws LaunchException {
        if (!plan.backend().id().equals("sandlock")) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "plan was negotiated for backend '"
                    + plan.backend().id() + "', not sandlock");
        }
        if (!(discovered instanceof Discovered.Found found)) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "sandlock is unavailable: "
                    + ((Discovered.Unavailable) discovered).reason());
        }
        ExecutionSpec spec = plan.spec();
        checkEnvironment(spec);
        if (!Files.isDirectory(Path.of(spec.workingDirectory()))) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "working directory " + spec.workingDirectory()
                    + " does not exist");
        }
        List<DomainLowering.Flags> lowered = new ArrayList<>();
        List<EvidenceRecord> setup = new ArrayList<>();
        List<CapabilityDomain> installed = new ArrayList<>();
        OptionalLong wall = OptionalLong.empty();
        OwnPaths own = OwnPaths.of(spec.protectedPaths(), ownState);
        List<String> writeGrants = new ArrayList<>();
        for (PlannedRequirement pr : plan.planned()) {
            ControlRequirement r = pr.requirement();
            DomainLowering l = planned.apply(r).orElseGet(() -> lowerer.lower(r, own));
            if (l instanceof DomainLowering.Inexpressible x) {
                if (pr.outcome() instanceof RequirementOutcome.Enforced
                        || pr.outcome() instanceof RequirementOutcome.Observed) {
                    throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, r.domain().token()
                            + " was planned as met, but sandlock cannot install it: " + x.reason());
                }
                continue; // recorded unmet/degraded by negotiation; nothing to install
            }
            DomainLowering.Flags f = (DomainLowering.Flags) l;
            checkPathsExist(f);
            lowered.add(f);
            installed.add(r.domain());
            if (r.domain() == CapabilityDomain.FILESYSTEM_WRITE) {
                f.flags().stream().filter(x -> x.startsWith("--fs-write=")).map(x -> x.substring(11))
                        .forEach(writeGrants::add);
            }
            setup.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.of(r.domain()), ClaimTerm.PLANNED,
                    f.steps().isEmpty() ? "no flag needed" : String.join("; ", f.steps())));
            if (r.scope() instanceof Scope.Limits lim && lim.maxWallClockSeconds().isPresent()) {
                wall = OptionalLong.of(Math.min(lim.maxWallClockSeconds().getAsLong(),
                        wall.orElse(Long.MAX_VALUE)));
            }
        }
        for (AbsentLowering.Absent a : AbsentLowering.lower(spec.requirements(), own)) {
            setup.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.of(a.domain()), ClaimTerm.PLANNED,
                    "not stated; sandlock was told: " + String.join("; ", a.steps()) + (a.residual().isEmpty() ? ""
                            : "; still restricted by sandlock: " + String.join("; ", a.residual()))));
        }
        SandlockCommand.Shim shim = shim(spec, setup, drop);
        boolean writesStated = spec.requirements().stream().anyMatch(r -> r.domain() == CapabilityDomain.FILESYSTEM_WRITE);
        Optional<List<String>> view = ReadOnlyView.options(writesStated, writeGrants, stateRoot.get(), drop);
        if (writesStated && view.isEmpty() && plan.planned().stream().anyMatch(pr -> pr.requirement().domain()
                == CapabilityDomain.FILESYSTEM_WRITE && pr.outcome() instanceof RequirementOutcome.Enforced)) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "filesystem_write was planned as met, but"
                    + " the read-only view that keeps metadata outside the write grants cannot be made without the"
                    + " capability drop's namespace");
        }
        view.ifPresent(v -> setup.add(new EvidenceRecord(EvidenceKind.CONFIGURED,
                Optional.of(CapabilityDomain.FILESYSTEM_WRITE), ClaimTerm.PLANNED, ReadOnlyView.describe(v))));
        Optional<String> name = names.get();
        List<String> guardOptions = new ArrayList<>(view.orElse(List.of()));
        Optional<CanaryBait> bait = canaries(plan, setup);
        if (bait.isPresent()) {
            // The FIFO alone, as a file: the shim's record goes there; later writes to it are never read.
            lowered.add(new DomainLowering.Flags(List.of("--fs-write=" + bait.get().fifo()), List.of()));
            guardOptions.add("canary:" + bait.get().fifo());
            shim = shim.withCanaries(bait.get().shimArgs());
        }
        SandlockCommand.Built cmd;
        try {
            cmd = SandlockCommand.build(found.executable(), spec, lowered, name, Optional.of(shim), own);
        } catch (RuntimeException e) {
            bait.ifPresent(CanaryBait::close);
            throw e;
        }
        setup.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.empty(), ClaimTerm.PLANNED,
                "sandlock " + found.version() + " sha256 " + found.sha256() + " (" + found.provenance().token()
                        + "); options: " + String.join(" ", cmd.options())));
        return new Prepared(plan, found, cmd, wall, stdio(spec.stdio()), setup, installed, name, drop,
                guardOptions, bait);
    }

    /** The launch's canaries (see CanaryChoice), their folder and listener made now; none when switched off. */
    private Optional<CanaryBait> canaries(EnforcementPlan plan, List<EvidenceRecord> setup) throws LaunchException {
        if (canaryRoot.isEmpty()) {
            return Optional.empty();
        }
        Optional<CanaryChoice> choice = CanaryChoice.choose(plan.planned(), canaryRoot.get(), ProgramFilter.hostArch());
        if (choice.isEmpty()) {
            return Optional.empty();
        }
        CanaryBait bait;
        try {
            bait = CanaryBait.open(choice.get(), canaryRoot.get());
        } catch (java.io.IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "cannot make the launch's canaries under "
                    + canaryRoot.get() + ": " + e.getMessage(), e);
        }
        setup.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.empty(), ClaimTerm.PLANNED, "canaries "
                + bait.kinds() + " (nonce " + bait.nonce() + "): the shim attempts each inside sandlock's sandbox"
                + " before aasm's filter and before the program; a canary that gets through refuses the launch"
                + " (exit 125); the record is the first line of the FIFO " + bait.fifo() + ", granted to the program"
                + " as a file for writing and read by the guard before the program exists"));
        return Optional.of(bait);
    }

    /**
     * aasm's filter for the program (see ProgramFilter) and what the guard does for every launch, recorded
     * as setup evidence. Without a filter for this architecture nothing is launched.
     */
    private SandlockCommand.Shim shim(ExecutionSpec spec, List<EvidenceRecord> setup, Optional<AuthorityDrop> drop)
            throws LaunchException {
        ProgramFilter.Concerns concerns = new ProgramFilter.Concerns(
                spec.requirements().stream().anyMatch(r -> r.domain() == CapabilityDomain.FILESYSTEM_READ));
        Optional<byte[]> program = ProgramFilter.build(ProgramFilter.hostArch(), concerns);
        Optional<Path> shim = guard.get();
        if (program.isEmpty() || shim.isEmpty()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, program.isEmpty()
                    ? "no seccomp filter for architecture " + ProgramFilter.hostArch() + ": nothing is launched"
                    + " without aasm's filter" : "the guard, which installs aasm's filter, is unavailable");
        }
        String filter = String.join("; ", ProgramFilter.describe(concerns));
        setup.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.empty(), ClaimTerm.PLANNED, "the guard"
                + " starts sandlock in a session of its own (with a terminal of the launch's own when stdin is one),"
                + drop.map(d -> " every capability set emptied (" + d.option() + ") and no_new_privs;").orElse(" its"
                + " capabilities NOT dropped (the least_authority probe did not see the drop work here);")
                + " the program runs"
                + " under aasm's seccomp filter (" + program.get().length / 8 + " instructions): " + filter));
        if (concerns.watching()) {
            setup.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.of(CapabilityDomain.FILESYSTEM_READ),
                    ClaimTerm.PLANNED, "inotify_add_watch fails with EPERM: Landlock does not check watches"));
        }
        return new SandlockCommand.Shim(shim.get(), ProgramFilter.hex(program.get()));
    }

    /**
     * Descriptors held for a remote caller (the resident kernel's client) are reopened through
     * /proc/self/fd: a tty, pipe, FIFO or file gives the program the caller's own stream (output in
     * append mode, so nothing is truncated).
     */
    static Runs.Stdio stdio(Stdio stdio) {
        if (stdio instanceof Stdio.Descriptors d) {
            return new Runs.Stdio(ProcessBuilder.Redirect.from(fd(d.stdin())), ProcessBuilder.Redirect.appendTo(
                    fd(d.stdout())), ProcessBuilder.Redirect.appendTo(fd(d.stderr())));
        }
        return Runs.Stdio.inherit();
    }

    private static java.io.File fd(int fd) {
        return new java.io.File("/proc/self/fd/" + fd);
    }

    /** The environment must hold only delegated names (the kernel reduces it; this is the backend's check). */
    private static void checkEnvironment(ExecutionSpec spec) throws LaunchException {
        Set<String> delegated = new TreeSet<>();
        for (ControlRequirement r : spec.requirements()) {
            if (r.domain() == CapabilityDomain.CREDENTIAL && r.scope() instanceof Scope.Delegated d) {
                delegated.addAll(d.environmentNames());
            }
        }
        Set<String> extra = new TreeSet<>(spec.environment().keySet());
        extra.removeAll(delegated);
        if (!extra.isEmpty()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the launch environment carries names that"
                    + " were not delegated: " + extra);
        }
    }

    /** Sandlock 0.8.6 aborts with exit 1 on a missing grant path (contract §2); say which one, before launch. */
    private static void checkPathsExist(DomainLowering.Flags f) throws LaunchException {
        for (String flag : f.flags()) {
            if (flag.startsWith("--fs-read=") || flag.startsWith("--fs-write=")) {
                String path = flag.substring(flag.indexOf('=') + 1);
                if (!Files.exists(Path.of(path))) {
                    throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "filesystem grant " + path
                            + " does not exist, and sandlock 0.8.6 refuses to start with a missing grant path;"
                            + " create it or remove it from the policy");
                }
            }
        }
    }
}
