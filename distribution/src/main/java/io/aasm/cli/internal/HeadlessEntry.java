package io.aasm.cli.internal;

import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.conformance.ConformanceSuite;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.report.ReportRenderer;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The command layer's entry for whoever is not a shell: the resident kernel's connections call it as a
 * {@link CommandEntry}; the boot jar ({@code bin/aasm}) finds it by JDK type and property
 * {@code aasm.cli.entry=headless} and passes one call as a map ({@link BootCall}). Registered without
 * waiting for the kernel, so help and usage errors never wait; commands that need a service wait for it
 * with a timeout.
 */
@Component(service = {ToIntFunction.class, CommandEntry.class}, property = "aasm.cli.entry=headless")
public final class HeadlessEntry implements ToIntFunction<Map<String, Object>>, CommandEntry {
    private final ServiceGate<IsolationKernel> kernel = new ServiceGate<>();
    private final ServiceGate<ConformanceSuite> suite = new ServiceGate<>();
    private final ServiceGate<AuditLog> audit = new ServiceGate<>();
    private final ReportFormats formats = new ReportFormats();
    private final FaceSettings settings;

    @Activate
    public HeadlessEntry(BundleContext ctx) {
        this.settings = FaceSettings.of(ctx);
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

    @Override
    public int applyAsInt(Map<String, Object> call) {
        return execute(BootCall.read(call));
    }

    @Override
    public int execute(CommandInvocation call) {
        return AasmCli.execute(new Invocation(new CliIo(call, settings), kernel, suite, formats, audit));
    }
}
