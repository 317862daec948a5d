package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.canary.CanaryBait;
import io.aasm.backend.sandlock.internal.capability.Narrowing;
import io.aasm.backend.sandlock.internal.capability.OwnState;
import io.aasm.backend.sandlock.internal.discovery.AnswerCache;
import io.aasm.backend.sandlock.internal.discovery.BackendManifest;
import io.aasm.backend.sandlock.internal.discovery.CommandRunner;
import io.aasm.support.digest.DigestCache;
import io.aasm.backend.sandlock.internal.discovery.Discovery;
import io.aasm.backend.sandlock.internal.harden.AuthorityDrop;
import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.backend.sandlock.internal.probe.ProbeResults;
import io.aasm.backend.sandlock.internal.lower.OwnPaths;
import io.aasm.backend.sandlock.internal.lower.RequirementLowerer;
import io.aasm.backend.sandlock.internal.supervise.Cgroups;
import io.aasm.backend.sandlock.internal.supervise.LaunchIds;
import io.aasm.backend.sandlock.internal.supervise.ProcessTable;
import io.aasm.backend.sandlock.internal.supervise.Runs;
import io.aasm.backend.sandlock.internal.supervise.SandlockRun;
import io.aasm.backend.sandlock.internal.supervise.SandlockState;
import io.aasm.backend.sandlock.internal.supervise.TeardownCheckCache;
import io.aasm.backend.sandlock.internal.supervise.TreeTeardown;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.policy.ControlRequirement;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
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
    private final Settings settings;
    private final BackendManifest manifest;
    private final RequirementLowerer lowerer = new RequirementLowerer();
    private final Launches launches;
    private final ScheduledExecutorService timers;
    private final HostState host;
    private final Runs runs;
    /** Runs not yet awaited: deactivating the component abandons them to their guards, which end them. */
    private final Set<SandlockRun> live = ConcurrentHashMap.newKeySet();

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
        // The extracted guard's digest is remembered under its file identity next to it (GuardBinary).
        this.runs = Runs.embedded(settings.guardCacheDir(), Optional.of(new DigestCache(settings.guardCacheDir(),
                "sandlock-guard")), new Runs.Places(ids, new Cgroups(settings.sysRoot(),
                settings.procRoot(), ids), new SandlockState(settings.shmRoot(), ids)), timers,
                settings.terminateGraceMillis(), AuthorityDrop.forThisProcess(settings.procRoot()));
        // A predecessor killed together with its guard leaves its cgroup (and what is in it): reclaim it now.
        runs.reclaim();
        this.launches = new Launches(lowerer, runs::newSandboxName, runs::actor, ownState(), runs::stateRoot,
                settings.canaryRoot());
        // The binary's digest is remembered in the backend's own state under its file identity (DigestCache).
        Discovery discovery = new Discovery(settings.env(), new CommandRunner(10_000), manifest,
                settings.requireVerifiedProvenance(), new DigestCache(settings.probeCacheDir(), "sandlock")::sha256,
                // its answers to --version and check are kept per boot and digest (AnswerCache)
                Optional.of(new AnswerCache(settings.probeCacheDir(), settings.procRoot())));
        // The teardown self-check's verdict is remembered per boot next to the probes (TeardownCheckCache).
        this.host = new HostState(settings, discovery, runs, new TreeTeardown(runs, settings.procRoot(),
                Optional.of(new TeardownCheckCache(settings.probeCacheDir(), settings.procRoot()))));
    }

    /** This backend's own files: the probe cache and the extracted guard beneath it. No launch may write them. */
    private List<String> ownState() {
        return List.of(settings.probeCacheDir().toString());
    }

    @Deactivate
    void deactivate() {
        live.forEach(SandlockRun::abandon);
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

    /** Each stated requirement lowered to flags once; a scope sandlock cannot express is reported unsupported. */
    @Override
    public BackendPlan plan(ExecutionSpec spec) {
        BackendCapabilities base = capabilities();
        // Two checks of the same rule: OwnPaths (existing paths, resolved) while lowering, OwnState (as written,
        // paths not created yet included) on the result.
        OwnPaths own = OwnPaths.of(spec.protectedPaths(), ownState());
        BackendCapabilities caps = OwnState.narrow(host.probes(false)
                .map(p -> Narrowing.narrow(base, spec, lowerer, p, host.teardown(), own)).orElse(base), spec);
        Map<CapabilityDomain, DomainLowering> lowered = spec.requirements().stream()
                .collect(Collectors.toMap(ControlRequirement::domain, r -> lowerer.lower(r, own), (first, later) -> later));
        boolean observed = host.probes(false).map(pr -> pr.status(ProbeResults.AUTHORITY)
                instanceof io.aasm.ports.capability.PrerequisiteStatus.Satisfied).orElse(false);
        return new SandlockPlan(caps, lowered, Descriptors.planned(host.probes(false)),
                observed && authorityDrop().isPresent() ? Optional.of(SandlockPlan.LEAST) : Optional.empty());
    }

    @Override
    public PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException {
        Optional<SandlockPlan> own = plan.backendPlan() instanceof SandlockPlan p ? Optional.of(p) : Optional.empty();
        Launches.Prepared p = launches.prepare(plan, host.discovered(),
                r -> own.flatMap(o -> Optional.ofNullable(o.lowered().get(r.domain()))), authorityDrop());
        AtomicBoolean used = new AtomicBoolean();
        return new PreparedLaunch() {
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
                if (!used.getAndSet(true)) {
                    p.canaries().ifPresent(CanaryBait::close);
                }
            }
        };
    }

    /**
     * Root drops in place, always; an unprivileged caller needs a user namespace of its own, used only where
     * the least_authority probe saw it work (elsewhere launches still run, without the drop, and say so).
     */
    private Optional<AuthorityDrop> authorityDrop() {
        if (runs.authority() == AuthorityDrop.DROP) {
            return Optional.of(AuthorityDrop.DROP);
        }
        boolean works = host.probes(false).map(pr -> pr.status(ProbeResults.AUTHORITY)
                instanceof io.aasm.ports.capability.PrerequisiteStatus.Satisfied).orElse(false);
        return works ? Optional.of(runs.authority()) : Optional.empty();
    }

    private Execution start(Launches.Prepared p) throws LaunchException {
        ExecutionSpec spec = p.plan().spec();
        OptionalLong deadline = p.wallClockSeconds().isPresent()
                ? OptionalLong.of(p.wallClockSeconds().getAsLong() * 1000) : OptionalLong.empty();
        SandlockRun run;
        try {
            run = runs.start(p.command().argv(), p.sandboxName(), spec.environment(),
                    Path.of(spec.workingDirectory()), p.stdio(), deadline, p.drop().isPresent(), p.guardOptions());
        } catch (IOException e) {
            p.canaries().ifPresent(CanaryBait::close);
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "cannot start sandlock at "
                    + p.sandlock().executable() + " under its guard: " + e.getMessage(), e);
        }
        live.add(run);
        return new SandlockExecution(p, run, host, () -> {
            live.remove(run);
            p.canaries().ifPresent(CanaryBait::close);
        });
    }
}
