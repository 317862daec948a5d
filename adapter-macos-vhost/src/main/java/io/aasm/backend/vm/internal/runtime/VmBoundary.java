package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.backend.vm.internal.lower.VmLowerer;
import io.aasm.backend.vm.internal.lower.VmLowering;
import io.aasm.backend.vm.internal.probe.VmCapabilities;
import io.aasm.backend.vm.internal.probe.VmProbeSuite;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.RelayEndpoint;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The VM boundary, whatever runs the guest: identity, measured capabilities (probes once per host, cached),
 * lowering, prepare and spawn. The two backends ({@code aasm-qemu-vm}, {@code aasm-macos-vm}) are this with
 * their own {@link Hypervisor}.
 */
public final class VmBoundary {
    /** The backend's version: part of the probe cache key, so a new lowering or agent is measured again. */
    static final String VERSION = "0.3.0";
    private final String id;
    private final String source;
    private final Hypervisor hypervisor;
    private final VmSettings settings;
    private final VmStarts starts;
    private final ProbeState probes;

    public VmBoundary(String id, String source, Hypervisor hypervisor, VmSettings settings,
                      ScheduledExecutorService timers) {
        this.id = id;
        this.source = source;
        this.hypervisor = hypervisor;
        this.settings = settings;
        this.starts = new VmStarts(hypervisor, timers, settings.answerMillis());
        this.probes = new ProbeState(id, VERSION, settings, hypervisor,
                () -> new VmProbeSuite(this::runDirect, settings.scratchDir(),
                        (spec, endpoint, env) -> runMediated(spec, endpoint, env, (b, o, l) -> { })));
    }

    public BackendIdentity identity() {
        return new BackendIdentity(id, VERSION, new Provenance(source, "Apache-2.0", false, hypervisor.sha256(),
                ProvenanceStatus.FIRST_PARTY));
    }

    public Optional<String> unavailable() {
        // The guest compiles its own seccomp programs (lower/Seccomp): nothing of the host's libseccomp is needed.
        return hypervisor.unavailable();
    }

    /** What a listing shows: cached verdicts or "not yet measured"; never boots a guest. */
    public BackendCapabilities capabilities() {
        return probes.listed(this::unavailable);
    }

    public BackendCapabilities refreshCapabilities() {
        return measured(true).general();
    }

    private VmCapabilities measured(boolean refresh) {
        return probes.measured(refresh, this::unavailable);
    }

    /** Where this boundary's verdicts are (or would be) cached under the current key. */
    public Path probeCacheFile() {
        return probes.cache().file();
    }

    public BackendPlan plan(ExecutionSpec spec) {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            return new VmBackendPlan(spec, BackendCapabilities.unavailable(why.get(), PlatformBoundary.SEPARATE_KERNEL),
                    Optional.empty());
        }
        VmCapabilities m = measured(false); // the first use on a host measures (a listing never does)
        BackendCapabilities caps = m.narrowed(spec.requirements(), spec.transport());
        if (!caps.available()) {
            return new VmBackendPlan(spec, caps, Optional.empty());
        }
        VmLowering lowering = lowerer().lower(spec, spec.requirements(), settings.uid(), settings.gid());
        if (lowering instanceof VmLowering.Refused r) {
            caps = VmCapabilities.unsupported(caps, r.domain(), r.detail());
        }
        return new VmBackendPlan(spec, caps, Optional.of(lowering));
    }

    public PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, why.get());
        }
        List<ControlRequirement> enforced = plan.planned().stream()
                .filter(p -> p.outcome() instanceof RequirementOutcome.Enforced).map(PlannedRequirement::requirement)
                .toList();
        ExecutionSpec spec = plan.spec();
        checkEnvironment(spec);
        Optional<VmLowering> own = plan.backendPlan() instanceof VmBackendPlan p && p.spec().equals(spec)
                && enforced.equals(spec.requirements()) ? p.lowering() : Optional.empty();
        VmLowering lowering = own.orElseGet(() -> lowerer().lower(spec, enforced, settings.uid(), settings.gid()));
        VmLaunch launch = installable(lowering);
        Optional<VmStarts.Mediated> mediated = Optional.empty();
        if (launch.proxyPort().isPresent()) {
            // the grant is enforced by the session alone: without its relay endpoint nothing may start
            mediated = plan.mediation().flatMap(m -> m.relay().map(r -> new VmStarts.Mediated(r, m.environment())));
            if (mediated.isEmpty()) {
                throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "network_egress: the launch's egress "
                        + "grants need its transport-mediation session with a relay endpoint, and the kernel opened none");
            }
        }
        return new VmPreparedLaunch(id, launch, mediated, spec.stdio(), starts, hypervisor.describe());
    }

    /** Lowers and runs one launch to its end, bypassing negotiation, stdio detached: the probes' way in. */
    public ExitDisposition runDirect(ExecutionSpec spec) throws LaunchException {
        return runDirect(spec, UnaryOperator.identity());
    }

    /**
     * As {@link #runDirect(ExecutionSpec)}, the lowered plan changed by {@code alter} before it is sent: how a
     * test breaks the guest boundary on purpose (the canaries must then refuse the launch). Not reachable from
     * the kernel or any configuration.
     */
    public ExitDisposition runDirect(ExecutionSpec spec, UnaryOperator<GuestPlan> alter) throws LaunchException {
        return runLowered(spec, l -> l.withPlan(alter.apply(l.plan())));
    }

    /**
     * As {@link #runDirect(ExecutionSpec, UnaryOperator)}, the whole lowered launch changed by {@code alter} (its
     * canaries' targets too: a test aims a canary where the guest can reach). Not reachable from the kernel or
     * any configuration.
     */
    public ExitDisposition runLowered(ExecutionSpec spec, UnaryOperator<VmLaunch> alter) throws LaunchException {
        return runDirect(spec, alter, Optional.empty(), (b, o, l) -> { });
    }

    /**
     * As {@link #runDirect(ExecutionSpec)} for a mediated spec: its proxy port leads to {@code endpoint} (a
     * session, or a probe's stand-in for one), {@code environment} joins the program's, and its stdout goes to
     * {@code stdout}. The relay probe's and the tests' way in.
     */
    public ExitDisposition runMediated(ExecutionSpec spec, RelayEndpoint endpoint, Map<String, String> environment,
                                       GuestSession.Output stdout) throws LaunchException {
        return runDirect(spec, UnaryOperator.identity(), Optional.of(new VmStarts.Mediated(endpoint, environment)),
                stdout);
    }

    private ExitDisposition runDirect(ExecutionSpec spec, UnaryOperator<VmLaunch> alter,
                                      Optional<VmStarts.Mediated> mediated, GuestSession.Output stdout)
            throws LaunchException {
        VmLaunch lowered = installable(lowerer().lower(spec, spec.requirements(), settings.uid(), settings.gid()));
        VmLaunch launch = alter.apply(lowered);
        Started s = starts.start(launch, mediated);
        s.session().relay(buf -> -1, stdout, (b, o, l) -> { });
        try {
            return new VmExecution(id, s, hypervisor.describe()).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            s.kill();
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "interrupted");
        }
    }

    private VmLowerer lowerer() {
        return new VmLowerer(settings.slots(), List.of(settings.stateDir().toString(),
                settings.probeDir().toString()));
    }

    private static VmLaunch installable(VmLowering l) throws LaunchException {
        if (l instanceof VmLowering.Refused r) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, r.domain().token() + ": " + r.detail());
        }
        return ((VmLowering.Lowered) l).launch();
    }

    /** The environment must hold only delegated names (the kernel reduces it; this is the backend's check). */
    private static void checkEnvironment(ExecutionSpec spec) throws LaunchException {
        Optional<List<String>> d = spec.requirements().stream().filter(r -> r.domain() == CapabilityDomain.CREDENTIAL)
                .map(r -> r.scope() instanceof Scope.Delegated x ? x.environmentNames() : List.<String>of()).findFirst();
        if (d.isEmpty()) {
            return;
        }
        Set<String> extra = new TreeSet<>(spec.environment().keySet());
        extra.removeAll(d.get());
        if (!extra.isEmpty()) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "the launch environment carries names that"
                    + " were not delegated: " + extra);
        }
    }

    public Path stateDir() {
        return settings.stateDir();
    }
}
