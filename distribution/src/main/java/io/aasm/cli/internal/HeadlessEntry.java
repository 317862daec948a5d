package io.aasm.cli.internal;

import io.aasm.ports.backend.Stdio;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.report.ReportRenderer;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.ToIntFunction;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * The headless face: the launcher ({@code bin/aasm}) finds this service by JDK type and property
 * {@code aasm.cli.entry=headless} and passes one invocation as a map (args, streams, environment,
 * working directory, signal hand-off). Registered without waiting for the kernel, so help and usage
 * errors never wait; commands that need the kernel wait for it with a timeout.
 */
@Component(service = ToIntFunction.class, property = "aasm.cli.entry=headless")
public final class HeadlessEntry implements ToIntFunction<Map<String, Object>> {
    private final KernelGate gate = new KernelGate();
    private final ReportFormats formats = new ReportFormats();
    private final Optional<Path> home;
    private final String version;
    private final List<String> protectedPaths;
    private final long kernelTimeout;

    @Activate
    public HeadlessEntry(BundleContext ctx) {
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

    @Override
    @SuppressWarnings("unchecked")
    public int applyAsInt(Map<String, Object> call) {
        CliIo io = new CliIo((InputStream) call.get("in"), (PrintStream) call.get("out"), (PrintStream) call.get("err"),
                (Map<String, String>) call.get("env"), (String) call.get("cwd"), home, version,
                (AtomicInteger) call.get("firstSignal"), (AtomicReference<IntConsumer>) call.get("onSignal"),
                (List<String>) call.getOrDefault("frameworkErrors", List.of()),
                (Stdio) call.getOrDefault("stdio", new Stdio.Inherit()), protectedPaths);
        return AasmCli.execute((String[]) call.get("args"), new Invocation(io, gate, formats, kernelTimeout));
    }
}
