package io.aasm.cli.internal;

import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.report.ReportRenderer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * {@code aasm:version}, each a thin wrapper over the same command layer as the headless CLI. Gogo
 * redirects System.in/out/err per session (ThreadIO), so the commands print there. The last exit
 * status is kept for {@code aasm:status}. No Gogo type is used, so this bundle
 * resolves without the shell bundles. Immediate, so the last status survives between calls.
 */
@Component(service = GogoCommands.class, immediate = true, property = {
    "osgi.command.scope=aasm",
    "osgi.command.function=run",
    "osgi.command.function=backends",
    "osgi.command.function=probe",
    "osgi.command.function=policy",
    "osgi.command.function=version",
    "osgi.command.function=status"})
public final class GogoCommands {
    private final KernelGate gate = new KernelGate();
    private final ReportFormats formats = new ReportFormats();
    private final Optional<Path> home;
    private final String version;
    private final List<String> protectedPaths;
    private final long kernelTimeout;
    private volatile int lastStatus;

    @Activate
    public GogoCommands(BundleContext ctx) {
        this.home = Faces.home(ctx);
        this.version = Faces.version(ctx);
        this.protectedPaths = Faces.protectedPaths(ctx);
        this.kernelTimeout = Faces.kernelTimeout(ctx);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    void bindKernel(IsolationKernel kernel) {
        gate.bind(kernel);
    }

    void unbindKernel(IsolationKernel kernel) {
        gate.unbind(kernel);
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

    /** The exit status of the previous aasm:* command in this framework (as the CLI would have exited). */
    public int status() {
        return lastStatus;
    }

    private void call(String command, String[] args) {
        String[] full = new String[args.length + 1];
        full[0] = command;
        System.arraycopy(args, 0, full, 1, args.length);
        CliIo io = new CliIo(System.in, System.out, System.err, System.getenv(),
                Path.of("").toAbsolutePath().toString(), home, version, new AtomicInteger(), new AtomicReference<>(),
                List.of(), protectedPaths);
        lastStatus = AasmCli.execute(full, new Invocation(io, gate, formats, kernelTimeout));
    }
}
