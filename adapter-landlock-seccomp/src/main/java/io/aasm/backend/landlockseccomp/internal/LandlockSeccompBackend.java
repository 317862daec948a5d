package io.aasm.backend.landlockseccomp.internal;

import io.aasm.ports.trace.LaunchStages;
import io.aasm.backend.landlockseccomp.internal.cgroup.Leftovers;
import io.aasm.backend.landlockseccomp.internal.host.HostDetector;
import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.backend.landlockseccomp.internal.launcher.LaunchOptions;
import io.aasm.backend.landlockseccomp.internal.launcher.LauncherBinary;
import io.aasm.backend.landlockseccomp.internal.launcher.ZygoteSupply;
import io.aasm.support.digest.DigestCache;
import io.aasm.backend.landlockseccomp.internal.lower.Lowerer;
import io.aasm.backend.landlockseccomp.internal.lower.Lowering;
import io.aasm.backend.landlockseccomp.internal.lower.PathReads;
import io.aasm.backend.landlockseccomp.internal.plan.PlanCache;
import io.aasm.backend.landlockseccomp.internal.probe.MeasuredCapabilities;
import io.aasm.backend.landlockseccomp.internal.probe.ProbeCache;
import io.aasm.backend.landlockseccomp.internal.probe.ProbeSuite;
import io.aasm.backend.landlockseccomp.internal.runtime.Launch;
import io.aasm.backend.landlockseccomp.internal.runtime.Launches;
import io.aasm.backend.landlockseccomp.internal.runtime.LandlockSeccompBackendPlan;
import io.aasm.backend.landlockseccomp.internal.runtime.LandlockSeccompExecution;
import io.aasm.backend.landlockseccomp.internal.runtime.LandlockSeccompPreparedLaunch;
import io.aasm.backend.landlockseccomp.internal.seccomp.FilterCompiler;
import io.aasm.backend.landlockseccomp.internal.seccomp.Libseccomp;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.policy.ControlRequirement;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The {@code aasm-native} backend: Java decides (lowering, seccomp program, probes, reports), the
 * static launcher installs the view, Landlock, seccomp, namespaces, cgroup placement and rlimits,
 * then execs. This class only wires the roles: {@link MeasuredCapabilities} (what the host can do),
 * {@link Lowerer} (one launch, lowered once, in its {@link LandlockSeccompBackendPlan}), {@link Launches}
 * (what a launch needs outside the program, and the launcher's start).
 */
@Component(service = IsolationBackend.class, configurationPid = "io.aasm.backend.landlockseccomp",
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = LandlockSeccompBackendConfig.class)
@BackendId(LandlockSeccompExecution.BACKEND_ID)
public final class LandlockSeccompBackend implements IsolationBackend {
    public static final String ID = LandlockSeccompExecution.BACKEND_ID;
    static final String SOURCE = "aasm adapter-landlock-seccomp (first party; launcher built from src/main/c)";

    private final HostFacts facts;
    private final Lowerer lowerer;
    private final Optional<LauncherBinary> launcher;
    private final String launcherProblem;
    private final Optional<Launches> launches;
    private final MeasuredCapabilities measured;
    private final PlanCache plans = new PlanCache();

    /** The framework property only the resident kernel's face sets (its socket). */
    static final String RESIDENT_SOCKET = "aasm.resident.socket";

    @Activate
    public LandlockSeccompBackend(LandlockSeccompBackendConfig config, BundleContext context) {
        // A zygote pays off only in a process that launches many times: the resident kernel, not a one-shot CLI.
        this(LandlockSeccompSettings.from(config), ZygoteSupply.enabled(context.getProperty(RESIDENT_SOCKET) != null));
    }

    public LandlockSeccompBackend(LandlockSeccompSettings settings) {
        this(settings, ZygoteSupply.enabled(false));
    }

    public LandlockSeccompBackend(LandlockSeccompSettings settings, boolean zygote) {
        this.facts = HostDetector.real().detect().narrowed(settings.maxLandlockAbi(), settings.assumeUnprivileged(),
                settings.assumeNoUserNamespaces());
        Optional<FilterCompiler> compiler = facts.libseccomp() ? Optional.of(new FilterCompiler(Libseccomp.load()))
                : Optional.empty();
        Path probeDir = settings.probeCacheDir().orElse(ProbeCache.defaultDir());
        this.lowerer = new Lowerer(facts, compiler, List.of(probeDir.toString(), LandlockSeccompSettings.stateDir().toString()),
                settings.canaries() ? Optional.of(LandlockSeccompSettings.stateDir().toString()) : Optional.empty());
        Optional<LauncherBinary> bin;
        String problem = "";
        try {
            // its digest remembered in the probe folder: the backend's own state, a protected path of every launch
            bin = Optional.of(LauncherBinary.load(settings.launcherPath(),
                    Optional.of(new DigestCache(probeDir, "aasm-launch"))));
        } catch (IOException | RuntimeException e) {
            bin = Optional.empty();
            problem = "the launcher binary is unavailable: " + e.getMessage();
        }
        this.launcher = bin;
        this.launcherProblem = problem;
        this.launches = bin.map(b -> new Launches(facts, b, LandlockSeccompSettings.stateDir(), zygote));
        reclaimLeftovers(facts);
        this.measured = new MeasuredCapabilities(facts, this::unavailable,
                () -> new ProbeCache(probeDir, facts.bootId(), facts.kernelRelease(), launcher.get().sha256(),
                        settings.fingerprint() + "-suite" + ProbeSuite.VERSION),
                () -> new ProbeSuite(new DirectRuns(this::lowerAll, launches.get()),
                        Path.of(System.getProperty("java.io.tmpdir"))),
                d -> lowerer.routes().general(d));
    }

    /**
     * Off the launch path: empties and removes the per-launch cgroups a supervisor that died (kill -9 of a
     * cold JVM or of the resident kernel) left behind, and says so in the log.
     */
    private static void reclaimLeftovers(HostFacts facts) {
        Thread t = new Thread(() -> {
            List<Path> removed = Leftovers.reclaim(facts.cgroups(), Path.of("/proc"));
            if (!removed.isEmpty()) {
                System.getLogger(LandlockSeccompBackend.class.getName()).log(System.Logger.Level.INFO,
                        "reclaimed " + removed.size() + " cgroup(s) left by a supervisor that died: " + removed);
            }
        }, "aasm-native-reclaim");
        t.setDaemon(true);
        t.start();
    }

    public HostFacts facts() {
        return facts;
    }

    @Override
    public BackendIdentity identity() {
        String version = Optional.ofNullable(LandlockSeccompBackend.class.getPackage().getImplementationVersion()).orElse("0.1.0");
        return new BackendIdentity(ID, version, new Provenance(SOURCE, "Apache-2.0", false,
                launcher.map(LauncherBinary::sha256), ProvenanceStatus.FIRST_PARTY));
    }

    private Optional<String> unavailable() {
        if (facts.arch().isEmpty()) {
            return Optional.of("architecture " + facts.osArch() + " is not supported (x86_64 and aarch64 are)");
        }
        return launcher.isEmpty() ? Optional.of(launcherProblem) : Optional.empty();
    }

    @Override
    public BackendCapabilities capabilities() {
        return measured.general();
    }

    @Override
    public BackendCapabilities refreshCapabilities() {
        return measured.refresh();
    }

    /**
     * Lowers every stated requirement once. A scope the routes accept but the lowering cannot install (a grant
     * inside aasm's own state, a write grant through another user's symlink) is reported unsupported here, so
     * negotiation names it before anything is prepared. The plan comes from {@link PlanCache} when one kept for the
     * same key still holds for the filesystem as it is now.
     */
    @Override
    public BackendPlan plan(ExecutionSpec spec) {
        PlanCache.Planned planned = plans.plan(spec, measured::generation, this::planFresh);
        LaunchStages.mark("backend_plan");
        return new LandlockSeccompBackendPlan(spec, planned.capabilities(), planned.lowering());
    }

    private PlanCache.Planned planFresh(ExecutionSpec spec, PathReads reads) {
        List<ControlRequirement> all = spec.requirements();
        BackendCapabilities caps = measured.narrowed(all, r -> lowerer.routes().route(r, all, spec.transport()), reads);
        if (!caps.available()) {
            return new PlanCache.Planned(caps, Optional.empty()); // nothing to lower for: nothing runs here
        }
        Lowering lowering = lowerer.lower(spec, all, reads);
        if (lowering instanceof Lowering.Refused r) {
            caps = MeasuredCapabilities.with(caps, r.domain(), (d, report) -> blocked(report)
                    ? report : CapabilityReport.unsupported(d, r.detail()));
        }
        return new PlanCache.Planned(caps, Optional.of(lowering));
    }

    /** The plans kept for this backend (their counters say how often one was used). */
    public PlanCache plans() {
        return plans;
    }

    /** A report that already names an unmet prerequisite keeps it: that is the truer reason. */
    private static boolean blocked(CapabilityReport report) {
        return report.prerequisites().stream().anyMatch(p -> p.status() instanceof PrerequisiteStatus.Unsatisfied)
                || report.support() instanceof io.aasm.ports.capability.SupportLevel.Unsupported;
    }

    /**
     * Installs exactly the requirements negotiation enforces. When that is every stated one (the usual case)
     * the lowering made by {@link #plan} is the one installed; otherwise the enforced subset is lowered anew.
     */
    @Override
    public PreparedLaunch prepare(EnforcementPlan plan) throws LaunchException {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, why.get());
        }
        List<ControlRequirement> enforced = enforced(plan);
        Optional<Lowering> planned = plan.backendPlan() instanceof LandlockSeccompBackendPlan own && own.spec().equals(plan.spec())
                && enforced.equals(plan.spec().requirements()) ? own.lowering() : Optional.empty();
        Lowering lowering = planned.orElseGet(() -> lowerer.lower(plan.spec(), enforced));
        io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan lowered = installable(lowering);
        if (lowered.proxyPort().isPresent() && plan.mediation().flatMap(m -> m.relay()).isEmpty()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the plan relays the program's egress to "
                    + "transport mediation, but no mediation session with a relay endpoint came with it; nothing was "
                    + "started");
        }
        Launch launch = launches.get().prepare(lowered, lowered.proxyPort().isPresent() ? plan.mediation()
                : Optional.empty());
        return new LandlockSeccompPreparedLaunch(launches.get(), launch, LaunchOptions.of(plan.spec().stdio()));
    }

    /** Only requirements the negotiation decided to enforce are installed; the rest stay unmet/recorded. */
    static List<ControlRequirement> enforced(EnforcementPlan plan) {
        return plan.planned().stream().filter(p -> p.outcome() instanceof RequirementOutcome.Enforced)
                .map(PlannedRequirement::requirement).toList();
    }

    private static io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan installable(Lowering lowering) throws LaunchException {
        if (lowering instanceof Lowering.Refused r) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, r.domain().token() + ": " + r.detail());
        }
        return ((Lowering.Lowered) lowering).plan();
    }

    private io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan lowerAll(ExecutionSpec spec) throws LaunchException {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, why.get());
        }
        return installable(lowerer.lower(spec, spec.requirements()));
    }

    /** Lowers and runs one launch to its end, bypassing negotiation: the probes' way in. */
    public io.aasm.ports.backend.ExitDisposition runDirect(ExecutionSpec spec) throws LaunchException {
        return new DirectRuns(this::lowerAll, launches.orElseThrow(() -> new LaunchException(
                LaunchFailureKind.BACKEND_ERROR, launcherProblem))).run(spec);
    }
}
