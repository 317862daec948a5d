package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.capability.Narrowing;
import io.aasm.backend.sandlock.internal.discovery.BackendManifest;
import io.aasm.backend.sandlock.internal.discovery.CommandRunner;
import io.aasm.backend.sandlock.internal.discovery.Discovery;
import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.supervise.Cgroups;
import io.aasm.backend.sandlock.internal.supervise.LaunchIds;
import io.aasm.backend.sandlock.internal.supervise.ProcessTable;
import io.aasm.backend.sandlock.internal.supervise.SandlockState;
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
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.plan.EnforcementPlan;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.report.DescriptorInventory;
import java.io.IOException;
import java.nio.file.Path;
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
    private final Launches launches;
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
        LaunchIds ids = new LaunchIds(new ProcessTable(settings.procRoot()));
        this.runs = Runs.embedded(settings.guardCacheDir(), new Runs.Places(ids, new Cgroups(settings.sysRoot(),
                settings.procRoot(), ids), new SandlockState(settings.shmRoot(), ids)), timers,
                settings.terminateGraceMillis());
        // A predecessor killed together with its guard leaves its cgroup (and what is in it): reclaim it now.
        runs.reclaim();
        this.launches = new Launches(lowerer, runs::newSandboxName);
        Discovery discovery = new Discovery(settings.env(), new CommandRunner(10_000), manifest,
                settings.requireVerifiedProvenance());
        this.host = new HostState(settings, discovery, runs, new TreeTeardown(runs, settings.procRoot()));
    }

    @Deactivate
    void deactivate() {
        running.values().forEach(r -> r.run().abandon());
        timers.shutdownNow();
    }

    @Override
    public BackendIdentity identity() {
        return Identity.of(host.discovered(), manifest);
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
            SandlockRun run = runs.start(p.command().argv(), p.sandboxName(), spec.environment(),
                    Path.of(spec.workingDirectory()), p.stdio(), deadline);
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

    /** What aasm hands sandlock (stdio; the status descriptor as a residual until observed closed). */
    @Override
    public Optional<DescriptorInventory> plannedDescriptors(EnforcementPlan plan) {
        return Optional.of(Descriptors.planned(host.probes(false)));
    }

    /** The guard's inventory of what it inherited and sealed, plus the status descriptor's verdict. */
    @Override
    public Optional<DescriptorInventory> descriptorInventory(ExecutionHandle handle) {
        Running r = running.get(handle.token());
        return r == null ? Optional.empty() : r.run().report().inventory().map(inv -> Descriptors.taken(inv,
                host.probes(false)));
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
