package io.aasm.backend.container.internal;

import io.aasm.backend.container.internal.lower.ContainerLowerer;
import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.backend.container.internal.lower.ContainerRoutes;
import io.aasm.backend.container.internal.lower.HostTree;
import io.aasm.backend.container.internal.lower.Lowering;
import io.aasm.backend.container.internal.lower.Need;
import io.aasm.backend.container.internal.lower.SyscallTable;
import io.aasm.backend.container.internal.probe.Measured;
import io.aasm.backend.container.internal.canary.CanaryBait;
import io.aasm.backend.container.internal.canary.CanaryChoice;
import io.aasm.backend.container.internal.runtime.ContainerBackendPlan;
import io.aasm.backend.container.internal.runtime.ContainerExecution;
import io.aasm.backend.container.internal.runtime.Launch;
import io.aasm.backend.container.internal.runtime.Owner;
import io.aasm.backend.container.internal.runtime.StateDir;
import io.aasm.backend.container.internal.host.MountTable;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.policy.ControlRequirement;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.UnaryOperator;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The {@code aasm-container} backend: each launch runs in a hardened container of a Docker-compatible
 * engine on this host (docs/container.md). Java decides (lowering, seccomp profile, probes, reports); the
 * engine creates exactly the container the plan describes; a guard removes it if this JVM dies. This class
 * only wires the roles: {@link ContainerHost} (the engine), {@link ContainerLowerer} (one launch, lowered
 * once), {@link Measured} (what containers on this host were observed to deny), {@link Launches}.
 */
@Component(service = IsolationBackend.class, configurationPid = "io.aasm.backend.container",
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = ContainerConfig.class)
@BackendId(ContainerExecution.BACKEND_ID)
public final class ContainerBackend implements IsolationBackend {
    static final String SOURCE = "aasm adapter-container (first party; runs on the host's Docker-compatible engine)";

    private final ContainerHost host;
    private final Optional<SyscallTable> table = SyscallTable.bundled();
    private final ContainerLowerer lowerer;
    private final Measured measured;
    private final Launches launches;
    private final ProbeSetup probes;
    private final ScheduledExecutorService timers;

    @Activate
    public ContainerBackend(ContainerConfig config) {
        this(Settings.from(config));
    }

    public ContainerBackend(Settings settings) {
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "aasm-container-timers");
            t.setDaemon(true);
            return t;
        });
        StateDir state = new StateDir(settings.stateDir());
        this.host = new ContainerHost(settings, new Owner(settings.procRoot()), state);
        ContainerRoutes routes = new ContainerRoutes(table, settings.image().isPresent(), () -> ready()
                .map(r -> host.footprint(r.engine()).abstractNames()).orElse(List.of()));
        this.lowerer = new ContainerLowerer(routes, new ContainerLowerer.Host(table, this::need,
                () -> HostTree.list(Path.of("/")), () -> MountTable.mountPoints(settings.procRoot().resolve("self/mountinfo")),
                List.of(settings.probeCacheDir().toString(), settings.stateDir().toString(),
                        settings.canaryRoot().toString()),
                () -> ready().map(r -> host.footprint(r.engine()).sockets()).orElse(List.of()),
                () -> ready().flatMap(r -> r.facts().dataRoot())));
        this.measured = new Measured(routes::general, this::need);
        this.launches = new Launches(host, timers);
        this.probes = new ProbeSetup(host, table, this::runDirect, (spec, endpoint, env) -> runDirect(spec,
                UnaryOperator.identity(), Optional.of(new Launches.Mediated(endpoint, env))));
    }

    @Deactivate
    void deactivate() {
        timers.shutdownNow();
    }

    private Optional<ContainerHost.State.Ready> ready() {
        return host.current() instanceof ContainerHost.State.Ready r ? Optional.of(r) : Optional.empty();
    }

    private PrerequisiteStatus need(Need n) {
        Optional<ContainerHost.State.Ready> r = ready();
        return r.isEmpty() ? new PrerequisiteStatus.Unchecked("the engine is not reachable")
                : n.check(r.get().facts(), table);
    }

    private Optional<String> unavailable() {
        if (table.isEmpty()) {
            return Optional.of("no syscall table for " + System.getProperty("os.arch") + " in this bundle (x86_64 and "
                    + "aarch64 builds carry one): the seccomp baseline cannot be built");
        }
        return host.current() instanceof ContainerHost.State.Down d ? Optional.of(d.reason()) : Optional.empty();
    }

    @Override
    public BackendIdentity identity() {
        String version = Optional.ofNullable(ContainerBackend.class.getPackage().getImplementationVersion()).orElse("0.1.0");
        String engine = ready().map(r -> "; engine " + r.facts().describe() + "; " + r.image().describe()).orElse("");
        return new BackendIdentity(ContainerExecution.BACKEND_ID, version, new io.aasm.ports.backend.Provenance(SOURCE
                + engine, "Apache-2.0", false, ready().map(r -> r.guard().sha256()),
                io.aasm.ports.backend.ProvenanceStatus.FIRST_PARTY));
    }

    @Override
    public BackendCapabilities capabilities() {
        Optional<String> why = unavailable();
        return why.isPresent() ? BackendCapabilities.unavailable(why.get(), PlatformBoundary.CONTAINER)
                : measured.general(probes.probing(ready().orElseThrow()), false);
    }

    @Override
    public BackendCapabilities refreshCapabilities() {
        host.forget();
        Optional<String> why = unavailable();
        return why.isPresent() ? BackendCapabilities.unavailable(why.get(), PlatformBoundary.CONTAINER)
                : measured.general(probes.probing(ready().orElseThrow()), true);
    }

    /** Lowers every stated requirement once; a scope the lowering cannot install is reported unsupported here. */
    @Override
    public BackendPlan plan(ExecutionSpec spec) {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            return new ContainerBackendPlan(spec, BackendCapabilities.unavailable(why.get(), PlatformBoundary.CONTAINER),
                    Optional.empty(), Optional.empty(), Optional.empty());
        }
        List<ControlRequirement> all = spec.requirements();
        BackendCapabilities caps = measured.narrowed(probes.probing(ready().orElseThrow()), all,
                r -> lowerer.routes().route(r, all, spec.transport()),
                r -> ContainerRoutes.mediatedPort(r.scope(), spec.transport()).isPresent());
        Lowering lowering = lowerer.lower(spec, all);
        if (lowering instanceof Lowering.Refused r) {
            caps = ProbeSetup.with(caps, r.domain(), report -> blocked(report) ? report
                    : CapabilityReport.unsupported(r.domain(), r.detail()));
        }
        return new ContainerBackendPlan(spec, caps, Optional.of(lowering), probes.descriptors(measured),
                probes.authority(measured));
    }

    private static boolean blocked(CapabilityReport report) {
        return report.prerequisites().stream().anyMatch(p -> p.status() instanceof PrerequisiteStatus.Unsatisfied)
                || report.support() instanceof io.aasm.ports.capability.SupportLevel.Unsupported;
    }

    @Override
    public PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, why.get());
        }
        List<ControlRequirement> enforced = plan.planned().stream()
                .filter(p -> p.outcome() instanceof RequirementOutcome.Enforced).map(PlannedRequirement::requirement).toList();
        Optional<Lowering> planned = plan.backendPlan() instanceof ContainerBackendPlan own
                && own.spec().equals(plan.spec()) && enforced.equals(plan.spec().requirements()) ? own.lowering()
                : Optional.empty();
        Lowering lowering = planned.orElseGet(() -> lowerer.lower(plan.spec(), enforced));
        Lowering.Lowered lowered = installable(lowering);
        ContainerHost.State.Ready ready = ready().orElseThrow(() -> new LaunchException(LaunchFailureKind.BACKEND_ERROR,
                "the engine went away"));
        Launch launch = launches.create(ready, lowered.plan(), Launches.streams(plan.spec().stdio()),
                canaries(enforced, lowered.plan()), Launches.Mediated.of(plan.mediation()));
        return new ContainerPreparedLaunch(launch, lowered.general(), ready.image().describe(), ready.user());
    }

    /** The launch's canaries (CanaryChoice), their file and listener made now; none when switched off. */
    private Optional<CanaryBait> canaries(List<ControlRequirement> enforced, ContainerPlan plan) throws LaunchException {
        Settings s = host.settings();
        Optional<CanaryChoice> choice = s.canaries() ? CanaryChoice.choose(enforced, s.canaryRoot(),
                table.map(SyscallTable::numbers).orElse(Map.of()))
                : Optional.empty();
        if (choice.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(CanaryBait.open(choice.get(), s.canaryRoot(), !plan.init()));
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "cannot make the launch's canaries under "
                    + s.canaryRoot() + ": " + e.getMessage(), e);
        }
    }

    static Lowering.Lowered installable(Lowering lowering) throws LaunchException {
        if (lowering instanceof Lowering.Refused r) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, r.domain().token() + ": " + r.detail());
        }
        return (Lowering.Lowered) lowering;
    }

    /** Lowers and runs one spec to its end with every stated requirement, stdio detached: the probes' way in. */
    io.aasm.ports.backend.ExitDisposition runDirect(ExecutionSpec spec,
                                                   java.util.function.UnaryOperator<ContainerPlan> tweak)
            throws LaunchException {
        return runDirect(spec, tweak, Optional.empty());
    }

    /** The same for a mediated spec, relayed to {@code mediated} (the relay probe's session stand-in). */
    io.aasm.ports.backend.ExitDisposition runDirect(ExecutionSpec spec,
                                                   java.util.function.UnaryOperator<ContainerPlan> tweak,
                                                   Optional<Launches.Mediated> mediated) throws LaunchException {
        Lowering.Lowered lowered = installable(lowerer.lower(spec, spec.requirements()));
        ContainerHost.State.Ready ready = ready().orElseThrow(() -> new LaunchException(LaunchFailureKind.BACKEND_ERROR,
                "the engine went away"));
        Launch launch = launches.create(ready, tweak.apply(lowered.plan()), Launches.detached(), Optional.empty(),
                mediated);
        launch.start();
        try {
            return launch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            launch.release();
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "interrupted");
        }
    }
}
