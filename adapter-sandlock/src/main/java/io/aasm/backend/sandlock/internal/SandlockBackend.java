package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.capability.Narrowing;
import io.aasm.backend.sandlock.internal.discovery.BackendManifest;
import io.aasm.backend.sandlock.internal.discovery.CommandRunner;
import io.aasm.backend.sandlock.internal.discovery.Discovered;
import io.aasm.backend.sandlock.internal.discovery.Discovery;
import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.supervise.SupervisedRun;
import io.aasm.backend.sandlock.internal.supervise.Trackers;
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
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.plan.EnforcementPlan;
import io.aasm.ports.policy.ControlRequirement;
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
 * flags, and supervises each run, owning the teardown of the whole tree.
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
    private final Trackers trackers;
    private final Map<String, Launches.Prepared> prepared = new ConcurrentHashMap<>();
    private final Map<String, Running> running = new ConcurrentHashMap<>();

    private record Running(Launches.Prepared prepared, SupervisedRun run) {
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
        this.trackers = new Trackers(settings.sysRoot(), settings.procRoot());
        Discovery discovery = new Discovery(settings.env(), new CommandRunner(10_000), manifest,
                settings.requireVerifiedProvenance());
        this.host = new HostState(settings, manifest, discovery, trackers, timers);
    }

    @Deactivate
    void deactivate() {
        running.values().forEach(r -> r.run().terminate(TerminationRequest.IMMEDIATE));
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
                ? OptionalLong.of(p.wallClockSeconds().getAsLong() * 1000 + settings.deadlineGraceMillis())
                : OptionalLong.empty();
        try {
            SupervisedRun run = SupervisedRun.start(new SupervisedRun.Launch(p.command().argv(), spec.environment(),
                    Path.of(spec.workingDirectory()), deadline, null), trackers.create(spec.environment().keySet()),
                    timers, settings.terminateGraceMillis());
            String token = UUID.randomUUID().toString();
            forgetOldRuns();
            running.put(token, new Running(p, run));
            return new ExecutionHandle("sandlock", token);
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "cannot start sandlock at "
                    + p.sandlock().executable() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public ExitDisposition waitFor(ExecutionHandle handle) throws InterruptedException {
        return runOf(handle).run().waitFor().disposition();
    }

    @Override
    public boolean terminate(ExecutionHandle handle, TerminationRequest request) {
        return runOf(handle).run().terminate(request);
    }

    @Override
    public EnforcementEvidence evidence(ExecutionHandle handle) {
        Running r = runOf(handle);
        List<EvidenceRecord> records = new ArrayList<>(r.prepared().setup());
        if (r.run().finished()) {
            try {
                SupervisedRun.Ended e = r.run().waitFor();
                records.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(), ClaimTerm.UNMEASURED,
                        "sandlock ran the program; shell status " + e.disposition().shellStatus() + "; teardown"
                                + " signalled " + e.descendantsKilled() + " leftover process(es) ("
                                + host.teardown().describe() + ")"));
                if (e.deadlineReached()) {
                    records.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.of(CapabilityDomain.RESOURCE),
                            ClaimTerm.OBSERVED, "wall-clock deadline reached; aasm killed the whole tree"));
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        return new EnforcementEvidence("sandlock", records);
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
