package io.aasm.cli.internal;

import io.aasm.ports.backend.Stdio;
import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.conformance.ConformanceSuite;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.report.ReportRenderer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The Gogo face: {@code aasm:run}, {@code aasm:backends}, {@code aasm:probe}, {@code aasm:policy},
 * {@code aasm:version}, {@code aasm:daemon}, {@code aasm:conformance}, each a thin wrapper over the same
 * command layer as the headless CLI. Gogo redirects System.in/out/err per session (ThreadIO), so the
 * commands print there. The last exit status is kept for {@code aasm:status}. No Gogo type is used, so
 * this bundle resolves without the shell bundles. Immediate, so the last status survives between calls.
 */
@Component(service = GogoCommands.class, immediate = true, property = {
    "osgi.command.scope=aasm",
    "osgi.command.function=run",
    "osgi.command.function=backends",
    "osgi.command.function=probe",
    "osgi.command.function=policy",
    "osgi.command.function=version",
    "osgi.command.function=daemon",
    "osgi.command.function=conformance",
    "osgi.command.function=audit",
    "osgi.command.function=status"})
public final class GogoCommands {
    private final ServiceGate<IsolationKernel> kernel = new ServiceGate<>();
    private final ServiceGate<ConformanceSuite> suite = new ServiceGate<>();
    private final ServiceGate<AuditLog> audit = new ServiceGate<>();
    private final ReportFormats formats = new ReportFormats();
    private final FaceSettings settings;
    private volatile int lastStatus;

    @Activate
    public GogoCommands(BundleContext ctx) {
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

    public void run(String... args) {
        call("run", args);
    }

    public void backends(String... args) {
        call("backends", args);
    }

    public void probe(String... args) {
        call("probe", args);
    }

    public void policy(String... args) {
        call("policy", args);
    }

    public void version(String... args) {
        call("version", args);
    }

    public void daemon(String... args) {
        call("daemon", args);
    }

    public void conformance(String... args) {
        call("conformance", args);
    }

    public void audit(String... args) {
        call("audit", args);
    }

    /** The exit status of the previous aasm:* command in this framework (as the CLI would have exited). */
    public int status() {
        return lastStatus;
    }

    private void call(String command, String[] args) {
        List<String> full = new ArrayList<>(List.of(command));
        full.addAll(List.of(args));
        CommandInvocation call = new CommandInvocation(full, Path.of("").toAbsolutePath().toString(), System.getenv(),
                System.in, System.out, System.err, new Stdio.Inherit(),
                new CommandInvocation.Caller(CommandInvocation.Face.SHELL, ProcessHandle.current().pid(), -1),
                new AtomicInteger(), new AtomicReference<>(), List.of());
        lastStatus = AasmCli.execute(new Invocation(new CliIo(call, settings), kernel, suite, formats, audit));
    }
}
