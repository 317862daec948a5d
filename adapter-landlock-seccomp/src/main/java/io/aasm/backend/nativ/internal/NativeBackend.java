package io.aasm.backend.nativ.internal;

import io.aasm.backend.nativ.internal.cgroup.CgroupPlacement;
import io.aasm.backend.nativ.internal.host.HostDetector;
import io.aasm.backend.nativ.internal.host.HostFacts;
import io.aasm.backend.nativ.internal.host.LibC;
import io.aasm.backend.nativ.internal.launcher.LaunchOptions;
import io.aasm.backend.nativ.internal.launcher.LauncherBinary;
import io.aasm.backend.nativ.internal.launcher.StartOutcome;
import io.aasm.backend.nativ.internal.lower.Lowerer;
import io.aasm.backend.nativ.internal.lower.Lowering;
import io.aasm.backend.nativ.internal.lower.NativePlan;
import io.aasm.backend.nativ.internal.lower.Route;
import io.aasm.backend.nativ.internal.probe.CapabilityAssembler;
import io.aasm.backend.nativ.internal.probe.ProbeCache;
import io.aasm.backend.nativ.internal.probe.ProbeResult;
import io.aasm.backend.nativ.internal.probe.ProbeSuite;
import io.aasm.backend.nativ.internal.runtime.Launch;
import io.aasm.backend.nativ.internal.runtime.LaunchEvidence;
import io.aasm.backend.nativ.internal.runtime.MessageMapper;
import io.aasm.backend.nativ.internal.seccomp.FilterCompiler;
import io.aasm.backend.nativ.internal.seccomp.Libseccomp;
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
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.plan.EnforcementPlan;
import io.aasm.ports.plan.PlannedRequirement;
import io.aasm.ports.plan.RequirementOutcome;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.report.DescriptorInventory;
import io.aasm.ports.report.ProcessAuthority;
import io.aasm.backend.nativ.internal.runtime.PreparedFiles;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The {@code aasm-native} backend: Java decides (lowering, seccomp program, probes, reports), the
 * static launcher installs Landlock, seccomp, namespaces, cgroup placement and rlimits, then execs.
 */
@Component(service = IsolationBackend.class, configurationPid = "io.aasm.backend.nativ",
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = NativeBackendConfig.class)
@BackendId("aasm-native")
public final class NativeBackend implements IsolationBackend {
    public static final String ID = "aasm-native";
    static final String SOURCE = "aasm adapter-landlock-seccomp (first party; launcher built from src/main/c)";

    private final NativeSettings settings;
    private final HostFacts facts;
    private final Optional<FilterCompiler> compiler;
    private final Lowerer lowerer;
    private final Map<String, Launch> prepared = new ConcurrentHashMap<>();
    private final Map<String, Launch> running = new ConcurrentHashMap<>();
    /** Finished launches stay answerable (waitFor, evidence) until this many newer ones have finished. */
    private static final int FINISHED_KEPT = 256;
    private final java.util.Deque<String> finished = new java.util.concurrent.ConcurrentLinkedDeque<>();
    private volatile Optional<LauncherBinary> launcher;
    private volatile String launcherProblem = "";
    private volatile BackendCapabilities cached;

    @Activate
    public NativeBackend(NativeBackendConfig config) {
        this(NativeSettings.from(config));
    }

    public NativeBackend(NativeSettings settings) {
        this.settings = settings;
        this.facts = HostDetector.real().detect().narrowed(settings.maxLandlockAbi(), settings.assumeUnprivileged(),
                settings.assumeNoUserNamespaces());
        this.compiler = facts.libseccomp() ? Optional.of(new FilterCompiler(Libseccomp.load())) : Optional.empty();
        this.lowerer = new Lowerer(facts, compiler, List.of(probeDir().toString(), NativeSettings.stateDir().toString()));
        this.launcher = locateLauncher();
    }

    private Path probeDir() {
        return settings.probeCacheDir().orElse(ProbeCache.defaultDir());
    }

    /** Every path: a sealed memory copy, verified once, is what is executed (never a file a launch could change). */
    private Optional<LauncherBinary> locateLauncher() {
        try {
            if (settings.launcherPath().isPresent()) {
                byte[] bin = java.nio.file.Files.readAllBytes(settings.launcherPath().get());
                return Optional.of(LauncherBinary.sealedInMemory(bin, sha256(bin)));
            }
            return Optional.of(LauncherBinary.sealedInMemory());
        } catch (IOException | RuntimeException e) {
            launcherProblem = "the launcher binary is unavailable: " + e.getMessage();
            return Optional.empty();
        }
    }

    private static String sha256(byte[] bin) {
        try {
            var md = java.security.MessageDigest.getInstance("SHA-256");
            return java.util.HexFormat.of().formatHex(md.digest(bin));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public HostFacts facts() {
        return facts;
    }

    @Override
    public BackendIdentity identity() {
        String version = Optional.ofNullable(NativeBackend.class.getPackage().getImplementationVersion()).orElse("0.1.0");
        return new BackendIdentity(ID, version, new Provenance(SOURCE, "Apache-2.0", false,
                launcher.map(LauncherBinary::sha256), ProvenanceStatus.FIRST_PARTY));
    }

    private Optional<String> unavailable() {
        if (facts.arch().isEmpty()) {
            return Optional.of("architecture " + facts.osArch() + " is not supported (x86_64 and aarch64 are)");
        }
        if (launcher.isEmpty()) {
            return Optional.of(launcherProblem);
        }
        return Optional.empty();
    }

    @Override
    public BackendCapabilities capabilities() {
        BackendCapabilities c = cached;
        if (c != null) {
            return c;
        }
        synchronized (this) {
            if (cached == null) {
                cached = measure(false);
            }
            return cached;
        }
    }

    @Override
    public synchronized BackendCapabilities refreshCapabilities() {
        cached = measure(true);
        return cached;
    }

    private BackendCapabilities measure(boolean refresh) {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            return BackendCapabilities.unavailable(why.get(), PlatformBoundary.SHARED_HOST_KERNEL);
        }
        ProbeCache cache = new ProbeCache(probeDir(), facts.bootId(),
                facts.kernelRelease(), launcher.get().sha256(), settings.fingerprint());
        Optional<ProbeCache.Entry> entry = refresh ? Optional.empty() : cache.read();
        if (entry.isEmpty()) {
            Map<CapabilityDomain, ProbeResult> results = new ProbeSuite(probeRunner(),
                    Path.of(System.getProperty("java.io.tmpdir"))).runAll();
            entry = Optional.of(new ProbeCache.Entry(Instant.now(), results));
            try {
                cache.write(entry.get());
            } catch (IOException e) {
                // an unwritable cache only costs a re-probe next time
            }
        }
        return CapabilityAssembler.assemble(facts, d -> lowerer.routes().general(d), entry.get().results(),
                Optional.of(entry.get().measuredAt()));
    }

    @Override
    public BackendCapabilities capabilitiesFor(ExecutionSpec spec) {
        BackendCapabilities general = capabilities();
        if (!general.available()) {
            return general;
        }
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(general.reports());
        for (ControlRequirement r : spec.requirements()) {
            Route route = lowerer.routes().route(r, spec.requirements());
            Optional<ProbeResult> probe = general.reportFor(r.domain()).flatMap(NativeBackend::probeOf);
            reports.put(r.domain(), CapabilityAssembler.report(r.domain(), facts, route, probe));
        }
        return new BackendCapabilities(general.availability(), general.platformBoundary(), reports, general.measuredAt());
    }

    /** Recovers the probe verdict carried by a general report (the last prerequisite). */
    private static Optional<ProbeResult> probeOf(CapabilityReport r) {
        return r.prerequisites().stream().filter(p -> p.requirement().equals(CapabilityAssembler.PROBE_REQUIREMENT))
                .findFirst().map(p -> {
                    if (p.status() instanceof PrerequisiteStatus.Satisfied s) {
                        return ProbeResult.observed(s.observation());
                    }
                    String detail = p.status() instanceof PrerequisiteStatus.Unchecked u ? u.detail()
                            : ((PrerequisiteStatus.Unsatisfied) p.status()).detail();
                    return ProbeResult.inconclusive(detail.replaceFirst("^inconclusive: ", ""));
                });
    }

    @Override
    public List<String> lower(ControlRequirement requirement) {
        ExecutionSpec probe = new ExecutionSpec("/bin/true", List.of(), "/", io.aasm.ports.backend.IdentityRef.anonymous(),
                List.of(requirement), Map.of(), io.aasm.ports.backend.CredentialPosture.none(), new Stdio.Inherit());
        Lowering l = lowerer.lower(probe, List.of(requirement));
        if (l instanceof Lowering.Refused r) {
            return List.of("cannot install: " + r.detail());
        }
        return ((Lowering.Lowered) l).plan().installed().getOrDefault(requirement.domain(), List.of());
    }

    /** Only requirements the negotiation decided to enforce are installed; the rest stay unmet/recorded. */
    static List<ControlRequirement> toInstall(EnforcementPlan plan) {
        return plan.planned().stream().filter(p -> p.outcome() instanceof RequirementOutcome.Enforced)
                .map(PlannedRequirement::requirement).toList();
    }

    @Override
    public PreparedExecution prepare(EnforcementPlan plan) throws LaunchException {
        Launch launch = prepareLaunch(plan.spec(), toInstall(plan));
        String token = UUID.randomUUID().toString();
        prepared.put(token, launch);
        return new PreparedExecution(plan, token);
    }

    private Launch prepareLaunch(ExecutionSpec spec, List<ControlRequirement> reqs) throws LaunchException {
        if (unavailable().isPresent()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, unavailable().get());
        }
        Lowering l = lowerer.lower(spec, reqs);
        if (l instanceof Lowering.Refused r) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, r.domain().token() + ": " + r.detail());
        }
        NativePlan plan = ((Lowering.Lowered) l).plan();
        CgroupPlacement cg = CgroupPlacement.none();
        PreparedFiles files = PreparedFiles.none();
        try {
            // The teardown group only as real root: joining a cgroup2 group unprivileged depends on delegation
            // rules a failed join would turn into a refused launch.
            cg = CgroupPlacement.create(facts.cgroups(), plan.cgroupLimits(), LibC.INSTANCE.geteuid() == 0);
            files = PreparedFiles.create(plan, NativeSettings.stateDir());
            var message = MessageMapper.map(plan, cg, files, LibC.INSTANCE.geteuid(), LibC.INSTANCE.getegid());
            return new Launch(plan, message, cg, files);
        } catch (IOException | RuntimeException e) {
            cg.close();
            files.close();
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED, "preparing the launch failed: " + e.getMessage(), e);
        }
    }

    @Override
    public ExecutionHandle spawn(PreparedExecution p) throws LaunchException {
        Launch launch = prepared.remove(p.token());
        if (launch == null) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "unknown or already spawned preparation " + p.token());
        }
        return new ExecutionHandle(ID, start(launch, LaunchOptions.of(p.plan().spec().stdio())));
    }

    private String start(Launch launch, LaunchOptions options) throws LaunchException {
        StartOutcome out;
        try {
            out = launch.start(launcher.get().path(), options);
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "starting the launcher failed: " + e.getMessage(), e);
        }
        if (out instanceof StartOutcome.Started) {
            String token = UUID.randomUUID().toString();
            running.put(token, launch);
            return token;
        }
        ExitDisposition.NotStarted ns = LaunchEvidence.notStarted(out);
        boolean confinedFs = launch.plan().landlock().map(l -> l.handledFs() != 0).orElse(false);
        String hint = !(out instanceof StartOutcome.ExecFailed f) || !confinedFs ? ""
                : f.errno() == StartOutcome.ExecFailed.EACCES
                ? " (EACCES: the program, its interpreter or its libraries may lie outside the filesystem read grants)"
                : f.errno() == StartOutcome.ExecFailed.ENOENT
                ? " (ENOENT: paths outside the filesystem grants do not exist inside the boundary; the program, its "
                        + "interpreter or its libraries may lie outside the read grants)" : "";
        throw new LaunchException(ns.kind(), "launcher: " + ns.detail() + hint);
    }

    private io.aasm.backend.nativ.internal.probe.ProbeRunner probeRunner() {
        return new io.aasm.backend.nativ.internal.probe.ProbeRunner() {
            @Override
            public ExitDisposition run(ExecutionSpec spec) throws LaunchException {
                return runDirect(spec);
            }

            @Override
            public AutoCloseable start(ExecutionSpec spec) throws LaunchException {
                Launch launch = prepareLaunch(spec, spec.requirements());
                String token = NativeBackend.this.start(launch, LaunchOptions.inherit().withStdio(
                        Redirect.from(new java.io.File("/dev/null")), Redirect.DISCARD, Redirect.DISCARD));
                return () -> {
                    launch.terminate(false);
                    launch.waitFor();
                    running.remove(token);
                };
            }
        };
    }

    /** Lowers and runs one launch to its end, bypassing negotiation: used by the probes. */
    public ExitDisposition runDirect(ExecutionSpec spec) throws LaunchException {
        Launch launch = prepareLaunch(spec, spec.requirements());
        String token = start(launch, LaunchOptions.inherit().withStdio(Redirect.from(new java.io.File("/dev/null")), Redirect.DISCARD,
                Redirect.DISCARD));
        try {
            return launch.waitFor();
        } finally {
            running.remove(token);
        }
    }

    private Launch launch(ExecutionHandle h) {
        Launch l = running.get(h.token());
        if (l == null || !ID.equals(h.backendId())) {
            throw new IllegalArgumentException("unknown execution handle " + h.token());
        }
        return l;
    }

    @Override
    public ExitDisposition waitFor(ExecutionHandle handle) {
        Launch l = launch(handle);
        boolean first = l.disposition().isEmpty();
        ExitDisposition d = l.waitFor();
        if (first) {
            finished.add(handle.token());
            while (finished.size() > FINISHED_KEPT) {
                String old = finished.poll();
                if (old != null) {
                    running.remove(old);
                }
            }
        }
        return d;
    }

    @Override
    public boolean terminate(ExecutionHandle handle, TerminationRequest request) {
        Launch l = running.get(handle.token());
        if (l == null || l.disposition().isPresent()) {
            return false;
        }
        l.terminate(request == TerminationRequest.GRACEFUL);
        return true;
    }

    /** SIGWINCH goes to the launcher, which copies the caller's window size to the program's terminal. */
    @Override
    public boolean signal(ExecutionHandle handle, int signal) {
        Launch l = running.get(handle.token());
        if (l == null || l.disposition().isPresent() || signal != SIGWINCH) {
            return false;
        }
        return l.process().map(p -> LibC.INSTANCE.kill((int) p.pid(), signal) == 0).orElse(false);
    }

    private static final int SIGWINCH = 28;

    /** The launcher keeps stdio and seals every other inherited descriptor before exec, whatever the plan. */
    @Override
    public Optional<DescriptorInventory> plannedDescriptors(EnforcementPlan plan) {
        return Optional.of(new DescriptorInventory(true, List.of(0, 1, 2), List.of(), List.of()));
    }

    /** Every capability set emptied, securebits locked and no_new_privs set before execve, whatever the plan. */
    @Override
    public Optional<ProcessAuthority> plannedAuthority(EnforcementPlan plan) {
        return Optional.of(ProcessAuthority.planned("filter", "planned: the launcher empties every capability set "
                + "(bounding and ambient included), locks the securebits and sets no_new_privs before execve, and "
                + "installs at least the seccomp hardening baseline"));
    }

    /** What the program held right after its execve, read by the launcher's init from its /proc status. */
    @Override
    public Optional<ProcessAuthority> authority(ExecutionHandle handle) {
        Launch l = running.get(handle.token());
        return l == null ? Optional.empty() : l.process().flatMap(p -> p.authority());
    }

    /** The inventory the launcher's program child reported just before exec. */
    @Override
    public Optional<DescriptorInventory> descriptorInventory(ExecutionHandle handle) {
        Launch l = running.get(handle.token());
        return l == null ? Optional.empty() : l.process().flatMap(p -> p.descriptors());
    }

    @Override
    public EnforcementEvidence evidence(ExecutionHandle handle) {
        return new EnforcementEvidence(ID, LaunchEvidence.records(launch(handle)));
    }
}
