package io.aasm.cli.internal;

import io.aasm.ports.backend.Stdio;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The Gogo face: {@code aasm:run}, {@code aasm:backends}, {@code aasm:probe}, {@code aasm:policy},
 * {@code aasm:version}, {@code aasm:daemon}, {@code aasm:conformance}, {@code aasm:audit}, each a thin wrapper over the same
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
    private final CommandServices services;
    private final FaceSettings settings;
    private volatile int lastStatus;

    @Activate
    public GogoCommands(BundleContext ctx, @Reference CommandServices services) {
        this.services = services;
        this.settings = FaceSettings.of(ctx);
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
        lastStatus = AasmCli.execute(services.invocation(new CliIo(call, settings)));
    }
}
