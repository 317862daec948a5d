package io.aasm.cli.internal;

import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.conformance.ConformanceSuite;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.report.ReportRenderer;
import java.util.Map;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The services the command layer asks, held once for every face: the kernel, the conformance suite,
 * the audit log (each optional and dynamic, so help and usage errors never wait for them) and the
 * installed report renderers. {@link GogoCommands} and {@link HeadlessEntry} both take this one
 * component by a static reference, so the binding rules live here and nowhere else. Registered under
 * its own (internal) class: only this bundle can see it.
 */
@Component(service = CommandServices.class)
public final class CommandServices {
    private final ServiceGate<IsolationKernel> kernel = new ServiceGate<>();
    private final ServiceGate<ConformanceSuite> suite = new ServiceGate<>();
    private final ServiceGate<AuditLog> audit = new ServiceGate<>();
    private final ReportFormats formats = new ReportFormats();
    private final BundleContext context;

    /** By constructor, so the context is there before the first renderer is bound. */
    @Activate
    public CommandServices(BundleContext context) {
        this.context = context;
    }

    /** One invocation over these services, with the given I/O. */
    Invocation invocation(CliIo io) {
        return new Invocation(io, kernel, suite, formats, audit);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    void bindKernel(IsolationKernel k) {
        kernel.bind(k);
    }

    void unbindKernel(IsolationKernel k) {
        kernel.unbind(k);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    void bindSuite(ConformanceSuite s) {
        suite.bind(s);
    }

    void unbindSuite(ConformanceSuite s) {
        suite.unbind(s);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    void bindAudit(AuditLog log) {
        audit.bind(log);
    }

    void unbindAudit(AuditLog log) {
        audit.unbind(log);
    }

    /**
     * Every renderer, so the --report choices are what is installed now (hot deploy included). Bound by
     * reference: the names come from the service property, and a renderer is activated only when a report
     * is rendered with it (the kernel fetches it), never to list the choices.
     */
    @Reference(service = ReportRenderer.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY)
    void bindRenderer(ServiceReference<ReportRenderer> ref, Map<String, Object> props) {
        formats.bind(ref, props, () -> unnamedFormat(ref));
    }

    void unbindRenderer(ServiceReference<ReportRenderer> ref) {
        formats.unbind(ref);
    }

    /** A renderer registered without its format name must be asked for it: fetched for that, then released. */
    private String unnamedFormat(ServiceReference<ReportRenderer> ref) {
        ReportRenderer r = context.getService(ref);
        try {
            return r == null ? "" : ReportFormats.formatOf(r);
        } finally {
            if (r != null) {
                context.ungetService(ref);
            }
        }
    }
}
