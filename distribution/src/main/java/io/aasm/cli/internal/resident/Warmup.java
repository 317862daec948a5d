package io.aasm.cli.internal.resident;

import io.aasm.cli.internal.CommandEntry;
import io.aasm.cli.internal.CommandInvocation;
import io.aasm.ports.backend.Stdio;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.FrameworkListener;

/**
 * After the resident kernel listens, decides {@code --isolation process} launches of the default policy without
 * running them (dry runs of {@code /bin/true}), on a background thread: the backends of the process walk
 * ({@code sandlock}, {@code aasm-native}) are activated, each reading its cached probe results, and the command
 * layer, policy source and planning code are loaded, so the first client's launch does not pay for them (issue
 * 18; figures in docs/benchmarks.md).
 *
 * <p>Why dry runs of the process class: they go through the same decision as any request, so they activate what
 * a confined launch of that class would, and no more (the default policy's own isolation is {@code none}, which
 * activates no backend; {@code auto} or a listing would also activate the container and VM backends, held all day
 * for classes fewer launches ask for); they launch nothing and write no audit record. It starts only after the socket
 * listens and the framework has started, so readiness is never delayed; a client that arrives meanwhile is served
 * at once and shares whatever activation is under way (a backend is activated once). It probes nothing a launch
 * would not: each backend's activation reads its per-boot probe cache as the first launch would.
 * {@code -Daasm.resident.warmup=false} turns it off (to measure the first call without it).
 */
final class Warmup {
    static final String PROPERTY = "aasm.resident.warmup";
    /**
     * One dry run pinned to each backend of the shipped process walk: the walk stops at the backend it chooses, and
     * which one that is depends on the caller's policy and folder, so an unpinned dry run may leave the other cold
     * (measured: the first call then activated {@code aasm-native}). A backend that is not installed is a cheap
     * refusal.
     */
    static final List<List<String>> RUNS = List.of(
            List.of("run", "exec", "--isolation", "process", "--isolation-backend", "sandlock", "--dry-run", "--",
                    "/bin/true"),
            List.of("run", "exec", "--isolation", "process", "--isolation-backend", "aasm-native", "--dry-run", "--",
                    "/bin/true"));

    private Warmup() {
    }

    /**
     * Starts the warm-up unless switched off, once the framework has started: the server listens while the
     * distribution's bundle starts, before the adapters' bundles, and a decision taken then could find a backend
     * not yet registered and warm nothing. {@code log} gets one line with its outcome and duration.
     */
    static void startIfEnabled(BundleContext ctx, CommandEntry entry, int uid, Consumer<String> log) {
        if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            return;
        }
        Runnable go = () -> {
            Thread t = new Thread(() -> run(entry, uid, log), "aasm-resident-warmup");
            t.setDaemon(true);
            t.start();
        };
        AtomicBoolean started = new AtomicBoolean();
        FrameworkListener onStarted = new FrameworkListener() {
            @Override
            public void frameworkEvent(FrameworkEvent e) {
                if (e.getType() == FrameworkEvent.STARTED && started.compareAndSet(false, true)) {
                    ctx.removeFrameworkListener(this);
                    go.run();
                }
            }
        };
        ctx.addFrameworkListener(onStarted);
        // already started (a server activated later, e.g. after a refresh): no STARTED event will come
        if (ctx.getBundle(0).getState() == Bundle.ACTIVE && started.compareAndSet(false, true)) {
            ctx.removeFrameworkListener(onStarted);
            go.run();
        }
    }

    private static void run(CommandEntry entry, int uid, Consumer<String> log) {
        long t0 = System.nanoTime();
        PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
        Path cwd = null;
        try {
            // An empty folder of its own as the working directory: the default policy grants writes to it, and
            // `/` (too wide) or aasm's own folders (protected) would be refused before any backend is asked.
            cwd = Files.createTempDirectory("aasm-warmup");
            StringBuilder outcomes = new StringBuilder();
            for (List<String> args : RUNS) {
                ByteArrayOutputStream preview = new ByteArrayOutputStream();
                int status = entry.execute(new CommandInvocation(args, cwd.toString(), Map.of(),
                        InputStream.nullInputStream(), new PrintStream(preview, true, StandardCharsets.UTF_8), sink,
                        new Stdio.Inherit(), new CommandInvocation.Caller(CommandInvocation.Face.RESIDENT,
                        ProcessHandle.current().pid(), uid), new AtomicInteger(), new AtomicReference<>(), List.of()));
                String text = preview.toString(StandardCharsets.UTF_8);
                outcomes.append(outcomes.length() == 0 ? "" : "; ").append(args.get(5)).append(": status ")
                        .append(status).append(text.contains("\nposture: REFUSED") ? ", refused" : ", selected");
            }
            log.accept("warmed up in " + (System.nanoTime() - t0) / 1_000_000 + " ms (dry runs of the default"
                    + " policy under --isolation process, " + outcomes + ")");
        } catch (IOException | RuntimeException e) {
            // A failed warm-up costs only speed: the first request activates what it needs, as without it.
            log.accept("warm-up failed (the first request activates what it needs): " + e);
        } finally {
            if (cwd != null) {
                try {
                    Files.deleteIfExists(cwd);
                } catch (IOException e) {
                    // an empty folder left in the temporary directory is harmless
                }
            }
        }
    }
}
