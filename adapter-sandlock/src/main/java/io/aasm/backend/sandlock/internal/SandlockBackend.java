package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.capability.Narrowing;
import io.aasm.backend.sandlock.internal.discovery.BackendManifest;
import io.aasm.backend.sandlock.internal.discovery.CommandRunner;
import io.aasm.backend.sandlock.internal.discovery.Discovered;
import io.aasm.backend.sandlock.internal.discovery.Discovery;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.supervise.SupervisedRun;
import io.aasm.backend.sandlock.internal.supervise.Trackers;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.plan.EnforcementPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
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
    private final Settings settings;
    private final BackendManifest manifest;
    private final RequirementLowerer lowerer = new RequirementLowerer();
    private final Launches launches = new Launches(lowerer);
    private final ScheduledExecutorService timers;
    private final HostState host;
    private final Trackers trackers;
    /** Runs not yet awaited: deactivating the component ends them (a stopped bundle leaves nothing running). */
    private final java.util.Set<SupervisedRun> live = ConcurrentHashMap.newKeySet();

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
        live.forEach(r -> r.terminate(TerminationRequest.IMMEDIATE));
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

    /** Each requirement lowered to flags once; a scope sandlock cannot express is reported unsupported. */
    @Override
    public BackendPlan plan(ExecutionSpec spec) {
        BackendCapabilities base = capabilities();
        BackendCapabilities caps = host.probes(false)
                .map(p -> Narrowing.narrow(base, spec, lowerer, p, host.teardown())).orElse(base);
        return new SandlockPlan(caps, spec.requirements().stream()
                .collect(java.util.stream.Collectors.toMap(r -> r.domain(), lowerer::lower, (x, y) -> y)));
    }

    @Override
    public PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException {
        Launches.Prepared p = launches.prepare(plan, host.discovered());
        return new PreparedLaunch() {
            private final java.util.concurrent.atomic.AtomicBoolean used = new java.util.concurrent.atomic.AtomicBoolean();

            @Override
            public Execution spawn() throws LaunchException {
                if (!used.compareAndSet(false, true)) {
                    throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "this preparation was already spawned"
                            + " or closed");
                }
                return start(p);
            }

            @Override
            public void close() {
                used.set(true);
            }
        };
    }

    private Execution start(Launches.Prepared p) throws LaunchException {
        ExecutionSpec spec = p.plan().spec();
        OptionalLong deadline = p.wallClockSeconds().isPresent()
                ? OptionalLong.of(p.wallClockSeconds().getAsLong() * 1000 + settings.deadlineGraceMillis())
                : OptionalLong.empty();
        SupervisedRun run;
        try {
            run = SupervisedRun.start(new SupervisedRun.Launch(p.command().argv(), spec.environment(),
                    Path.of(spec.workingDirectory()), deadline, null), trackers.create(spec.environment().keySet()),
                    timers, settings.terminateGraceMillis());
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "cannot start sandlock at "
                    + p.sandlock().executable() + ": " + e.getMessage(), e);
        }
        live.add(run);
        return new SandlockExecution(p, run, host.teardown(), () -> live.remove(run));
    }
}
