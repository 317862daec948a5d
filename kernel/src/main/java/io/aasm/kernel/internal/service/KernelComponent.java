package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.audit.Auditor;
import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.kernel.BackendStatus;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.kernel.PolicyCheck;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicySource;
import io.aasm.ports.report.ReportRenderer;
import io.aasm.ports.transport.TransportMediator;
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
    private final BoundAuditLogs auditLogs = new BoundAuditLogs();
    private final LaunchRunner launcher = new LaunchRunner(new Auditor(auditLogs));
    private volatile KernelSettings settings;
    private final BoundBackends backends = new BoundBackends();
    private final LazyServices<PolicySource> sources = new LazyServices<>();
    private final BoundRenderers renderers = new BoundRenderers();
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
        settings = KernelSettings.of(config, properties);
    }

    // Backends, policy sources, mediators and renderers are bound by their properties and activated on first
    // use (LazyService): binding by ComponentServiceObjects leaves a delayed component unactivated.
    @Reference(service = IsolationBackend.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY)
    void bindBackend(ComponentServiceObjects<IsolationBackend> objects, Map<String, Object> props) {
        backends.add(new LazyService<>(objects, props, "activate_backend"), props);
    }

    void unbindBackend(ComponentServiceObjects<IsolationBackend> objects, Map<String, Object> props) {
        backends.remove(props);
    }

    /** For tests and embedding: an already active backend. */
    public void addBackend(IsolationBackend backend, Map<String, Object> props) {
        backends.add(LazyService.of(backend), props);
    }

    public void removeBackend(IsolationBackend backend) {
        backends.remove(backend);
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
        renderers.add(new LazyService<>(objects, props, "activate_renderer"), props);
    }

    void unbindRenderer(ComponentServiceObjects<ReportRenderer> objects, Map<String, Object> props) {
        renderers.remove(props);
    }

    /** For tests and embedding: an already active renderer. */
    public void addRenderer(ReportRenderer renderer, Map<String, Object> props) {
        renderers.add(LazyService.of(renderer), props);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public void addAuditLog(AuditLog log) {
        auditLogs.add(log);
    }

    public void removeAuditLog(AuditLog log) {
        auditLogs.remove(log);
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
        KernelSettings s = settings;
        return decider.decide(request, active, backends.installed(), s.walkOrder(), s.protectedPaths(),
                !mediators.isEmpty());
    }

    @Override
    public LaunchSession launch(LaunchDecision decision) throws LaunchException {
        // only a mediated launch activates the mediator (one that cannot start is refused as one that is gone)
        return launcher.launch(decision, backends.installed(), mediated(decision) ? mediators.first() : Optional.empty());
    }

    @Override
    public List<BackendStatus> backends() {
        return backends.installed().stream().map(b -> BackendStatuses.of(b, false)).toList();
    }

    @Override
    public Optional<BackendStatus> probe(String backendId, boolean refresh) {
        return backends.installed().stream().filter(b -> b.id().equals(backendId)).findFirst()
                .map(b -> BackendStatuses.of(b, refresh));
    }

    @Override
    public Optional<ReportRenderer> renderer(String format) {
        return renderers.first(format);
    }

    @Override
    public List<String> autoWalkOrder() {
        return settings.walkOrder().candidates(backends.installed());
    }

    private static boolean mediated(LaunchDecision decision) {
        if (decision instanceof LaunchDecision.Confined c) {
            return c.plan().mediated();
        }
        return decision instanceof LaunchDecision.Unconfined u && u.spec().transport().mediated();
    }
}
