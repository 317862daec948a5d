package io.aasm.cli.internal;

import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.conformance.ConformanceSuite;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.report.ReportRenderer;
import java.util.Map;
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

    /** Every renderer, so the --report choices are what is installed now (hot deploy included). */
    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindRenderer(ReportRenderer renderer, Map<String, Object> props) {
        formats.bind(renderer, props);
    }

    void unbindRenderer(ReportRenderer renderer) {
        formats.unbind(renderer);
    }
}
