package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.audit.Auditor;
import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.kernel.internal.selection.InstalledBackend;
import io.aasm.kernel.internal.selection.WalkOrder;
import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendRanking;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.kernel.BackendStatus;
import io.aasm.ports.kernel.FrameworkProperties;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.kernel.PolicyCheck;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicySource;
import io.aasm.ports.report.ReportFormatName;
import io.aasm.ports.report.ReportRenderer;
import io.aasm.ports.transport.TransportMediator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.ComponentServiceObjects;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The kernel service. Backends, policy sources and renderers are tracked dynamically (greedy, so a
 * bundle that appears later is bound without a restart); every call works on a snapshot of the
 * volatile lists taken at its start. Backends, policy sources, renderers and mediators are bound by their
 * service properties alone and activated on first use ({@link LazyService}): a run pays for what it uses
 * (a pinned launch activates one backend, the auto walk its candidates up to the chosen one, a listing all).
 */
@Component(service = IsolationKernel.class, immediate = true, configurationPid = KernelConfig.PID)
@Designate(ocd = KernelConfig.class)
public final class KernelComponent implements IsolationKernel {

    private final Function<String, String> properties;
    private final Decider decider = new Decider();
    private volatile List<AuditLog> auditLogs = List.of();
    private final LaunchRunner launcher = new LaunchRunner(new Auditor(() -> auditLogs));
    private volatile WalkOrder walkOrder;
    private volatile List<String> protectedPaths = List.of();
    private final LazyServices<IsolationBackend> backendServices = new LazyServices<>();
    private volatile List<InstalledBackend> backends = List.of(); // the view of backendServices the calls use
    private final LazyServices<PolicySource> sources = new LazyServices<>();
    private final LazyServices<ReportRenderer> renderers = new LazyServices<>();
    private final LazyServices<TransportMediator> mediators = new LazyServices<>();

    @Activate
    public KernelComponent(KernelConfig config, BundleContext context) {
        this(config, context::getProperty);
    }

    /** For tests and embedding: {@code properties} stands in for framework properties. */
    public KernelComponent(KernelConfig config, Function<String, String> properties) {
        this.properties = properties;
        modified(config);
    }

    @Modified
    void modified(KernelConfig config) {
        walkOrder = WalkOrder.of(Optional.ofNullable(properties.apply(FrameworkProperties.AUTO_WALK)), config.auto_walk());
        protectedPaths = protectedPaths(Optional.ofNullable(properties.apply(FrameworkProperties.PROTECTED_PATHS)), config.protected_paths());
    }

    // Backends, policy sources, mediators and renderers are bound by their properties and activated on first
    // use (LazyService): binding by ComponentServiceObjects leaves a delayed component unactivated.
    @Reference(service = IsolationBackend.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY)
    synchronized void bindBackend(ComponentServiceObjects<IsolationBackend> objects, Map<String, Object> props) {
        addBackend(new LazyService<>(objects, props, "activate_backend"), props);
    }

    synchronized void unbindBackend(ComponentServiceObjects<IsolationBackend> objects, Map<String, Object> props) {
        backendServices.remove(props);
        backends = installed(backendServices);
    }

    /** For tests and embedding: an already active backend. */
    public synchronized void addBackend(IsolationBackend backend, Map<String, Object> props) {
        addBackend(LazyService.of(backend), props);
    }

    public synchronized void removeBackend(IsolationBackend backend) {
        backendServices.remove(backend);
        backends = installed(backendServices);
    }

    private void addBackend(LazyService<IsolationBackend> lazy, Map<String, Object> props) {
        backendServices.add(idOf(lazy, props), rankingOf(props), lazy);
        backends = installed(backendServices);
    }

    private static List<InstalledBackend> installed(LazyServices<IsolationBackend> services) {
        return services.entries().stream().map(e -> new InstalledBackend(e.name(), e.ranking(), e.service())).toList();
    }

    @Reference(service = PolicySource.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY)
    void bindPolicySource(ComponentServiceObjects<PolicySource> objects, Map<String, Object> props) {
        sources.add("", 0, new LazyService<>(objects, props, "activate_policy_source"));
    }

    void unbindPolicySource(ComponentServiceObjects<PolicySource> objects, Map<String, Object> props) {
        sources.remove(props);
    }

    /** For tests and embedding: an already active source. */
    public void addPolicySource(PolicySource source) {
        sources.add("", 0, LazyService.of(source));
    }

    public void removePolicySource(PolicySource source) {
        sources.remove(source);
    }

    /** Transport mediators; the first bound is used (a launch that needs one is refused without any). */
    @Reference(service = TransportMediator.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY)
    void bindMediator(ComponentServiceObjects<TransportMediator> objects, Map<String, Object> props) {
        mediators.add("", 0, new LazyService<>(objects, props, "activate_mediator"));
    }

    void unbindMediator(ComponentServiceObjects<TransportMediator> objects, Map<String, Object> props) {
        mediators.remove(props);
    }

    /** For tests and embedding: an already active mediator. */
    public void addMediator(TransportMediator mediator) {
        mediators.add("", 0, LazyService.of(mediator));
    }

    @Reference(service = ReportRenderer.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY)
    void bindRenderer(ComponentServiceObjects<ReportRenderer> objects, Map<String, Object> props) {
        addRenderer(new LazyService<>(objects, props, "activate_renderer"), props);
    }

    void unbindRenderer(ComponentServiceObjects<ReportRenderer> objects, Map<String, Object> props) {
        renderers.remove(props);
    }

    /** For tests and embedding: an already active renderer. */
    public void addRenderer(ReportRenderer renderer, Map<String, Object> props) {
        addRenderer(LazyService.of(renderer), props);
    }

    private void addRenderer(LazyService<ReportRenderer> lazy, Map<String, Object> props) {
        Object name = props.get(ReportFormatName.NAME);
        // a renderer registered without its format name must be asked, which activates it
        String format = name != null ? name.toString()
                : Guarded.call("format()", () -> lazy.get().format()) instanceof Guarded.Ok<String> ok ? ok.value() : "";
        renderers.add(format, 0, lazy);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public synchronized void addAuditLog(AuditLog log) {
        List<AuditLog> next = new ArrayList<>(auditLogs);
        next.add(log);
        auditLogs = List.copyOf(next);
    }

    public synchronized void removeAuditLog(AuditLog log) {
        auditLogs = auditLogs.stream().filter(l -> l != log).toList();
    }

    /**
     * The property (the deployment's own state, set by its launcher) and the configured paths together:
     * configuration can add protected paths, never remove one. Relative entries are dropped.
     */
    static List<String> protectedPaths(Optional<String> property, String[] configured) {
        List<String> raw = new ArrayList<>(property.map(p -> List.of(p.split(":"))).orElse(List.of()));
        raw.addAll(List.of(configured));
        return raw.stream().map(String::strip).filter(p -> p.startsWith("/")).distinct().toList();
    }

    @Override
    public PolicyCheck checkPolicy(String policyFile) {
        PolicyLoad load = decider.load(Optional.of(policyFile), sources.active());
        if (load instanceof PolicyLoad.Rejected r) {
            return new PolicyCheck(policyFile, Optional.empty(), r.problems());
        }
        return new PolicyCheck(policyFile, Optional.of(decider.lower(((PolicyLoad.Loaded) load).policy())), List.of());
    }

    @Override
    public LaunchDecision decide(LaunchRequest request) {
        // a run without a policy file activates no policy source
        List<PolicySource> active = request.policyFile().isPresent() ? sources.active() : List.of();
        return decider.decide(request, active, backends, walkOrder, protectedPaths, !mediators.isEmpty());
    }

    @Override
    public LaunchSession launch(LaunchDecision decision) throws LaunchException {
        // only a mediated launch activates the mediator (one that cannot start is refused as one that is gone)
        return launcher.launch(decision, backends, mediated(decision) ? mediators.first() : Optional.empty());
    }

    @Override
    public List<BackendStatus> backends() {
        return backends.stream().map(b -> status(b, false)).toList();
    }

    @Override
    public Optional<BackendStatus> probe(String backendId, boolean refresh) {
        return backends.stream().filter(b -> b.id().equals(backendId)).findFirst().map(b -> status(b, refresh));
    }

    @Override
    public Optional<ReportRenderer> renderer(String format) {
        return renderers.first(format);
    }

    @Override
    public List<String> autoWalkOrder() {
        return walkOrder.candidates(backends);
    }

    private static BackendStatus status(InstalledBackend b, boolean refresh) {
        // listing a backend activates it: its capabilities are what its own probes measured, never assumed
        var identity = Guarded.call("identity()", () -> b.backend().identity());
        Guarded<BackendCapabilities> caps = refresh
                ? Guarded.call("refreshCapabilities()", () -> b.backend().refreshCapabilities())
                : Guarded.call("capabilities()", () -> b.backend().capabilities());
        List<String> faults = new ArrayList<>();
        if (identity instanceof Guarded.Fault<?> f) {
            faults.add(f.message());
        }
        if (caps instanceof Guarded.Fault<?> f) {
            faults.add(f.message());
        }
        return new BackendStatus(b.id(),
                identity instanceof Guarded.Ok<io.aasm.ports.backend.BackendIdentity> ok ? Optional.of(ok.value())
                        : Optional.empty(),
                caps instanceof Guarded.Ok<BackendCapabilities> ok ? Optional.of(ok.value()) : Optional.empty(),
                faults.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", faults)));
    }

    /** From the service property; a backend without it must be asked, which activates it. */
    private static String idOf(LazyService<IsolationBackend> backend, Map<String, Object> props) {
        Object id = props.get(BackendId.NAME);
        if (id != null) {
            return id.toString();
        }
        return Guarded.call("identity()", () -> backend.get().identity()) instanceof Guarded.Ok<io.aasm.ports.backend.BackendIdentity> ok
                ? ok.value().id() : "unidentified-backend";
    }

    private static boolean mediated(LaunchDecision decision) {
        if (decision instanceof LaunchDecision.Confined c) {
            return c.plan().mediated();
        }
        return decision instanceof LaunchDecision.Unconfined u && u.spec().transport().mediated();
    }

    private static int rankingOf(Map<String, Object> props) {
        Object r = props.get(BackendRanking.NAME);
        if (r instanceof Number n) {
            return n.intValue();
        }
        try {
            return r == null ? 0 : Integer.parseInt(r.toString().trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
