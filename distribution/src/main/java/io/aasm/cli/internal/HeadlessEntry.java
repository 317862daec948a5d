package io.aasm.cli.internal;

import io.aasm.ports.trace.LaunchStages;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The command layer's entry for whoever is not a shell: the resident kernel's connections call it as a
 * {@link CommandEntry}; the boot jar ({@code bin/aasm}) finds it by JDK type and property
 * {@code aasm.cli.entry=headless} and passes one call as a map ({@link BootCall}). The services come
 * from {@link CommandServices}, shared with the Gogo face. Registered without
 * waiting for the kernel, so help and usage errors never wait; commands that need a service wait for it
 * with a timeout.
 */
@Component(service = {ToIntFunction.class, CommandEntry.class}, property = "aasm.cli.entry=headless")
public final class HeadlessEntry implements ToIntFunction<Map<String, Object>>, CommandEntry {
    private final CommandServices services;
    private final FaceSettings settings;

    @Activate
    public HeadlessEntry(BundleContext ctx, @Reference CommandServices services) {
        this.services = services;
        this.settings = FaceSettings.of(ctx);
    }

    @Override
    public int applyAsInt(Map<String, Object> call) {
        // a cold run's command, stage by stage, under -Daasm.stages.file (docs/benchmarks.md, "Cold start")
        LaunchStages.begin("entry", System.nanoTime());
        try {
            return execute(BootCall.read(call));
        } finally {
            LaunchStages.finish();
        }
    }

    @Override
    public int execute(CommandInvocation call) {
        return AasmCli.execute(services.invocation(new CliIo(call, settings)));
    }
}
