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
 * volatile lists taken at its start.
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
    private volatile List<InstalledBackend> backends = List.of();
    private volatile List<PolicySource> sources = List.of();
    private volatile List<Map.Entry<String, ReportRenderer>> renderers = List.of();
    private volatile List<TransportMediator> mediators = List.of();

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

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public synchronized void addBackend(IsolationBackend backend, Map<String, Object> props) {
        List<InstalledBackend> next = new ArrayList<>(backends);
        next.add(new InstalledBackend(idOf(backend, props), rankingOf(props), backend));
        backends = List.copyOf(next);
    }

    public synchronized void removeBackend(IsolationBackend backend) {
        backends = backends.stream().filter(b -> b.backend() != backend).toList();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public synchronized void addPolicySource(PolicySource source) {
        List<PolicySource> next = new ArrayList<>(sources);
        next.add(source);
        sources = List.copyOf(next);
    }

    public synchronized void removePolicySource(PolicySource source) {
        sources = sources.stream().filter(s -> s != source).toList();
    }

    /** Transport mediators; the first bound is used (a launch that needs one is refused without any). */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public synchronized void addMediator(TransportMediator mediator) {
        List<TransportMediator> next = new ArrayList<>(mediators);
        next.add(mediator);
        mediators = List.copyOf(next);
    }

    public synchronized void removeMediator(TransportMediator mediator) {
        mediators = mediators.stream().filter(m -> m != mediator).toList();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public synchronized void addRenderer(ReportRenderer renderer, Map<String, Object> props) {
        Object name = props.get(ReportFormatName.NAME);
        String format = name != null ? name.toString()
                : Guarded.call("format()", renderer::format) instanceof Guarded.Ok<String> ok ? ok.value() : "";
        List<Map.Entry<String, ReportRenderer>> next = new ArrayList<>(renderers);
        next.add(Map.entry(format, renderer));
        renderers = List.copyOf(next);
    }

    public synchronized void removeRenderer(ReportRenderer renderer) {
        renderers = renderers.stream().filter(e -> e.getValue() != renderer).toList();
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
        PolicyLoad load = decider.load(Optional.of(policyFile), sources);
        if (load instanceof PolicyLoad.Rejected r) {
            return new PolicyCheck(policyFile, Optional.empty(), r.problems());
        }
        return new PolicyCheck(policyFile, Optional.of(decider.lower(((PolicyLoad.Loaded) load).policy())), List.of());
    }

    @Override
    public LaunchDecision decide(LaunchRequest request) {
        return decider.decide(request, sources, backends, walkOrder, protectedPaths, !mediators.isEmpty());
    }

    @Override
    public LaunchSession launch(LaunchDecision decision) throws LaunchException {
        return launcher.launch(decision, backends, mediators.stream().findFirst());
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
        return renderers.stream().filter(e -> e.getKey().equals(format)).map(Map.Entry::getValue).findFirst();
    }

    @Override
    public List<String> autoWalkOrder() {
        return walkOrder.candidates(backends);
    }

    private static BackendStatus status(InstalledBackend b, boolean refresh) {
        var identity = Guarded.call("identity()", b.backend()::identity);
        Guarded<BackendCapabilities> caps = refresh
                ? Guarded.call("refreshCapabilities()", b.backend()::refreshCapabilities)
                : Guarded.call("capabilities()", b.backend()::capabilities);
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

    private static String idOf(IsolationBackend backend, Map<String, Object> props) {
        Object id = props.get(BackendId.NAME);
        if (id != null) {
            return id.toString();
        }
        return Guarded.call("identity()", backend::identity) instanceof Guarded.Ok<io.aasm.ports.backend.BackendIdentity> ok
                ? ok.value().id() : "unidentified-backend";
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
