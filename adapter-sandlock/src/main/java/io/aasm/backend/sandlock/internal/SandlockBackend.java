package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.capability.Narrowing;
import io.aasm.backend.sandlock.internal.discovery.BackendManifest;
import io.aasm.backend.sandlock.internal.discovery.CommandRunner;
import io.aasm.backend.sandlock.internal.discovery.Discovered;
import io.aasm.backend.sandlock.internal.discovery.Discovery;
import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.guard.GuardBinary;
import io.aasm.backend.sandlock.internal.probe.ProbeResults;
import io.aasm.backend.sandlock.internal.supervise.Cgroups;
import io.aasm.backend.sandlock.internal.supervise.Runs;
import io.aasm.backend.sandlock.internal.supervise.SandlockRun;
import io.aasm.backend.sandlock.internal.supervise.TreeTeardown;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.ExecutionHandle;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedExecution;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.plan.EnforcementPlan;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.report.DescriptorInventory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The external sandlock backend: discovers and verifies the executable, lowers requirements to its
 * flags (and unstated domains to the flags that leave them open), and runs each launch under a guard
 * process that holds the lifeline, sandlock's status descriptor and the teardown of the whole tree.
 */
@Component(service = IsolationBackend.class, configurationPid = "io.aasm.backend.sandlock")
@Designate(ocd = SandlockConfig.class)
@BackendId("sandlock")
public final class SandlockBackend implements IsolationBackend {
    private static final int KEPT_RUNS = 256;
    private final Settings settings;
    private final BackendManifest manifest;
    private final RequirementLowerer lowerer = new RequirementLowerer();
    private final Launches launches = new Launches(lowerer);
    private final ScheduledExecutorService timers;
    private final HostState host;
    private final Runs runs;
    private final Map<String, Launches.Prepared> prepared = new ConcurrentHashMap<>();
    private final Map<String, Running> running = new ConcurrentHashMap<>();

    private record Running(Launches.Prepared prepared, SandlockRun run) {
    }

    @Activate
    public SandlockBackend(SandlockConfig config) {
        this(Settings.from(config));
    }

    SandlockBackend(Settings settings) {
        this.settings = settings;
        this.manifest = BackendManifest.bundled();
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "aasm-sandlock-timers");
            t.setDaemon(true);
            return t;
        });
        Optional<GuardBinary> guard;
        String missing = "";
        try {
            guard = Optional.of(GuardBinary.embedded(settings.guardCacheDir()));
        } catch (IOException e) {
            guard = Optional.empty();
            missing = "the sandlock backend's guard is missing from this bundle: " + e.getMessage();
        }
        Cgroups cgroups = new Cgroups(settings.sysRoot(), settings.procRoot());
        // A predecessor killed together with its guard leaves its cgroup (and what is in it): reclaim it now.
        cgroups.reclaim();
        this.runs = new Runs(guard, missing, cgroups, timers, settings.terminateGraceMillis());
        Optional<GuardBinary> g = guard;
        java.util.function.Supplier<Optional<Path>> actor = () -> {
            try {
                return g.isPresent() ? Optional.of(g.get().verified()) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            }
        };
        Discovery discovery = new Discovery(settings.env(), new CommandRunner(10_000), manifest,
                settings.requireVerifiedProvenance());
        this.host = new HostState(settings, discovery, runs, new TreeTeardown(runs, settings.procRoot()), actor,
                guard.map(GuardBinary::sha256).orElse("none"));
    }

    @Deactivate
    void deactivate() {
        running.values().forEach(r -> r.run().abandon());
        timers.shutdownNow();
    }

    @Override
    public BackendIdentity identity() {
        Discovered d = host.discovered();
        String version;
        Optional<String> digest;
        ProvenanceStatus status;
        if (d instanceof Discovered.Found f) {
            version = f.version().toString();
            digest = Optional.of(f.sha256());
            status = f.provenance();
        } else {
            Discovered.Unavailable u = (Discovered.Unavailable) d;
            version = u.version().map(Object::toString).orElse("not-found");
            digest = u.sha256();
            status = digest.filter(manifest.pinnedSha256()::contains).isPresent()
                    ? ProvenanceStatus.VERIFIED : ProvenanceStatus.UNVERIFIED;
        }
        return new BackendIdentity("sandlock", version, new Provenance(manifest.upstream(), manifest.license(),
                manifest.modified(), digest, status));
    }

    @Override
    public BackendCapabilities capabilities() {
        return host.capabilities(false);
    }

    @Override
    public BackendCapabilities refreshCapabilities() {
        return host.capabilities(true);
    }

    @Override
    public BackendCapabilities capabilitiesFor(ExecutionSpec spec) {
        BackendCapabilities base = capabilities();
        return host.probes(false).map(p -> Narrowing.narrow(base, spec, lowerer, p, host.teardown())).orElse(base);
    }

    @Override
    public List<String> lower(ControlRequirement requirement) {
        DomainLowering l = lowerer.lower(requirement);
        return l instanceof DomainLowering.Flags f ? f.steps()
                : List.of("cannot lower: " + ((DomainLowering.Inexpressible) l).reason());
    }

    @Override
    public PreparedExecution prepare(EnforcementPlan plan) throws LaunchException {
        Launches.Prepared p = launches.prepare(plan, host.discovered());
        String token = UUID.randomUUID().toString();
        prepared.put(token, p);
        return new PreparedExecution(plan, token);
    }

    @Override
    public ExecutionHandle spawn(PreparedExecution execution) throws LaunchException {
        Launches.Prepared p = prepared.remove(execution.token());
        if (p == null) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "unknown or already spawned preparation");
        }
        ExecutionSpec spec = p.plan().spec();
        OptionalLong deadline = p.wallClockSeconds().isPresent()
                ? OptionalLong.of(p.wallClockSeconds().getAsLong() * 1000) : OptionalLong.empty();
        try {
            SandlockRun run = runs.start(p.command().argv(), spec.environment(), Path.of(spec.workingDirectory()),
                    p.stdio(), deadline);
            String token = UUID.randomUUID().toString();
            forgetOldRuns();
            running.put(token, new Running(p, run));
            return new ExecutionHandle("sandlock", token);
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "cannot start sandlock at "
                    + p.sandlock().executable() + " under its guard: " + e.getMessage(), e);
        }
    }

    @Override
    public ExitDisposition waitFor(ExecutionHandle handle) throws InterruptedException {
        return runOf(handle).run().waitFor().mapped().disposition();
    }

    @Override
    public boolean terminate(ExecutionHandle handle, TerminationRequest request) {
        return runOf(handle).run().terminate(request);
    }

    @Override
    public EnforcementEvidence evidence(ExecutionHandle handle) {
        Running r = runOf(handle);
        return new EnforcementEvidence("sandlock", RunEvidence.of(r.prepared(), r.run(), host.teardown().describe()));
    }

    /**
     * aasm starts sandlock itself and knows what it hands over: stdio, plus the status descriptor 3,
     * which sandlock closes before it runs the program (observed by the descriptor probe). Unobserved,
     * that descriptor is a residual and the launch cannot be least-authority.
     */
    @Override
    public Optional<DescriptorInventory> plannedDescriptors(EnforcementPlan plan) {
        return Optional.of(new DescriptorInventory(true, List.of(0, 1, 2), List.of(), statusResidual()));
    }

    /** The guard's inventory of what it inherited and sealed, plus the status descriptor's verdict. */
    @Override
    public Optional<DescriptorInventory> descriptorInventory(ExecutionHandle handle) {
        Running r = running.get(handle.token());
        if (r == null) {
            return Optional.empty();
        }
        return r.run().report().inventory().map(inv -> {
            List<String> residual = new ArrayList<>(inv.residual());
            residual.addAll(statusResidual());
            return new DescriptorInventory(inv.complete(), inv.kept(), inv.sealed(), residual);
        });
    }

    private List<String> statusResidual() {
        PrerequisiteStatus seal = host.probes(false).map(p -> p.status(ProbeResults.DESCRIPTORS))
                .orElse(new PrerequisiteStatus.Unchecked("no probes"));
        return seal instanceof PrerequisiteStatus.Satisfied ? List.of()
                : List.of("3/sandlock status descriptor not observed closed before the program (" + seal.token() + ")");
    }

    /** A resident process launches many times; keep evidence of finished runs only for the latest ones. */
    private void forgetOldRuns() {
        if (running.size() >= KEPT_RUNS) {
            running.entrySet().removeIf(e -> e.getValue().run().finished());
        }
    }

    private Running runOf(ExecutionHandle handle) {
        Running r = running.get(handle.token());
        if (r == null || !handle.backendId().equals("sandlock")) {
            throw new IllegalArgumentException("unknown sandlock execution handle " + handle.token());
        }
        return r;
    }
}
