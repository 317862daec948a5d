package io.aasm.backend.landlockseccomp.internal.launcher;

import io.aasm.ports.evidence.DescriptorInventory;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A running launcher: starts {@code aasm-launch unix:<socket>} with the caller's stdio, sends the plan over a
 * private socket that then stays open as the lifeline (closing it, or this JVM dying, kills the confined tree),
 * and reads the launcher's status lines on a daemon thread.
 */
public final class LauncherProcess implements AutoCloseable {
    private final LauncherHandle process;
    private final java.nio.channels.ByteChannel channel;
    private final StatusReader status;

    private LauncherProcess(LauncherHandle process, java.nio.channels.ByteChannel channel, StatusReader status) {
        this.process = process;
        this.channel = channel;
        this.status = status;
    }

    /**
     * Starts the launcher and sends the plan. Throws only when the launcher process cannot be created; every
     * later failure (no connection, refusal, exec failure) is reported through {@link #awaitStart()}.
     */
    public static LauncherProcess start(Path launcher, PlanMessage plan, LaunchOptions options) throws IOException {
        return start(launcher, PlanEncoder.encode(plan), options, false);
    }

    /** Sends {@code message} as is; {@code endInput} then half-closes the channel (tests of truncated plans). */
    static LauncherProcess start(Path launcher, byte[] message, LaunchOptions options, boolean endInput)
            throws IOException {
        boolean zygote = options.zygote().isPresent() && options.wrapper().isEmpty() && options.channelOwner().isEmpty();
        if (zygote && !endInput && options.zygote().get().planInRequest() && ForkStdio.possible(options)) {
            Optional<LauncherProcess> p = startWithPlan(launcher, message, options);
            if (p.isPresent()) {
                return p.get();
            }
        }
        Path dir = privateDir();
        Path socket = dir.resolve("c");
        LauncherHandle process = null;
        SocketChannel channel = null;
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            if (options.channelOwner().isPresent()) {
                LaunchOptions.ChannelOwner o = options.channelOwner().get();
                for (Path p : List.of(dir, socket)) {
                    Files.setAttribute(p, "unix:uid", o.uid());
                    Files.setAttribute(p, "unix:gid", o.gid());
                }
            }
            if (zygote) {
                try {
                    process = options.zygote().get().fork(options, "unix:" + socket, -1).orElse(null);
                } catch (ZygoteSupply.Uncertain e) {
                    // The zygote may have forked a launcher for this channel before it failed: a fresh channel
                    // keeps that one from taking this plan; it finds no listener and refuses.
                    server.close();
                    Files.deleteIfExists(socket);
                    Files.deleteIfExists(dir);
                    return start(launcher, message, options.withZygote(java.util.Optional.empty()), endInput);
                }
            }
            if (process == null) {
                process = new LauncherHandle.Spawned(spawn(launcher, socket, options));
            }
            channel = accept(server, process, options.connectTimeout());
        } finally {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
        }
        if (channel == null) {
            StatusReader failed = StatusReader.unconnected(process, "launcher did not connect to its channel");
            return new LauncherProcess(process, null, failed);
        }
        try {
            ByteBuffer buf = ByteBuffer.wrap(message);
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
            if (endInput) {
                channel.shutdownOutput();
            }
        } catch (IOException e) {
            // The launcher stopped reading (it refused early); its status line says why.
        }
        return new LauncherProcess(process, channel, StatusReader.start(process, channel));
    }

    /**
     * The plan with the zygote request (PROTOCOL.md, "Zygote"): written into a socket pair whose other end the
     * forked launcher gets as fd 3, so it starts with its plan: no socket to bind, no connection to accept.
     * Empty when the zygote takes no request (the caller starts the launcher the usual way).
     */
    private static Optional<LauncherProcess> startWithPlan(Path launcher, byte[] message, LaunchOptions options)
            throws IOException {
        Optional<PlanChannel> pair = PlanChannel.holding(message);
        if (pair.isEmpty()) {
            return Optional.empty();
        }
        PlanChannel channel = pair.get();
        LauncherHandle process;
        try {
            process = options.zygote().get().fork(options, "fd:3,3", channel.launcherEnd()).orElse(null);
        } catch (ZygoteSupply.Uncertain e) {
            // The zygote failed after the request reached it: a launcher may hold this channel. Only when the
            // whole plan comes back out of it can no launcher run it, and the launch may start afresh.
            boolean withdrawn = channel.withdraw();
            channel.close();
            channel.readerDone();
            if (withdrawn) {
                return Optional.of(start(launcher, message, options.withZygote(Optional.empty()), false));
            }
            throw new IOException("the launcher zygote failed after a launcher took this launch's plan (its"
                    + " channel is closed, so that launcher ends its tree): " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            channel.close();
            channel.readerDone();
            throw e;
        }
        if (process == null) {
            channel.close();
            channel.readerDone();
            return Optional.empty();
        }
        channel.sent();
        return Optional.of(new LauncherProcess(process, channel, StatusReader.start(process, channel)));
    }

    private static Process spawn(Path launcher, Path socket, LaunchOptions options) throws IOException {
        List<String> cmd = new ArrayList<>(options.wrapper());
        cmd.add(launcher.toString());
        cmd.add("unix:" + socket);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(options.stdin()).redirectOutput(options.stdout())
                .redirectError(options.stderr());
        // The launcher never passes its own environment on (envp is the plan's); give it none to hold.
        pb.environment().clear();
        return pb.start();
    }

    private static SocketChannel accept(ServerSocketChannel server, LauncherHandle process, Duration timeout)
            throws IOException {
        server.configureBlocking(false);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Selector selector = Selector.open()) {
            server.register(selector, SelectionKey.OP_ACCEPT);
            while (System.nanoTime() < deadline) {
                // Liveness before the accept: a launcher that connected and then died between the two would
                // otherwise lose the connection it left in the backlog, and with it its last status line.
                boolean alive = process.isAlive();
                SocketChannel c = server.accept();
                if (c != null) {
                    c.configureBlocking(true);
                    return c;
                }
                if (!alive) {
                    return null;
                }
                selector.select(50);
                selector.selectedKeys().clear();
            }
        }
        process.signal(LauncherHandle.SIGKILL);
        return null;
    }

    static Path privateDir() throws IOException {
        // Short base: AF_UNIX paths are limited to 107 bytes. 0700 so only this user (and root) can connect.
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        Path base = runtime != null && runtime.startsWith("/") && runtime.length() < 60 && Files.isWritable(Path.of(runtime))
                ? Path.of(runtime) : Path.of("/tmp");
        return Files.createTempDirectory(base, "aasm-l",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    /** The launcher's pid (the process the supervisor signals). */
    public long pid() {
        return process.pid();
    }

    /** Sends {@code signal} to the launcher (forwarded per the plan's SIGNALS); false once it has ended. */
    public boolean signal(int signal) {
        return process.signal(signal);
    }

    /** Whether the plan went with the zygote request (the launcher never connected for it). */
    public boolean planWithRequest() {
        return channel instanceof PlanChannel;
    }

    /** Whether the resident kernel's zygote forked this launcher. */
    public boolean forked() {
        return process.forked();
    }

    /** Blocks until the launcher reports whether the program started. */
    public StartOutcome awaitStart() {
        return join(status.start);
    }

    /** The program child's descriptor inventory, once reported. */
    public Optional<DescriptorInventory> descriptors() {
        return Optional.ofNullable(status.descriptors);
    }

    /** What the program held right after its execve, once the launcher reported it. */
    public Optional<io.aasm.ports.evidence.ProcessAuthority> authority() {
        return Optional.ofNullable(status.authority);
    }

    /** What the canary child reported before execve, if the plan carried canaries. */
    public Optional<CanaryOutcome> canary() {
        return Optional.ofNullable(status.canary);
    }

    /** The denials the launcher's init answered for the program, once reported (at the program's end). */
    public Optional<RecordedDecisions> decisions() {
        return status.decisions.build();
    }

    /**
     * The launcher's stage stamps reported so far (CLOCK_MONOTONIC nanoseconds, the clock of
     * {@link System#nanoTime()}): {@code start}, {@code plan}, {@code namespaces}, {@code init}, {@code landlock},
     * {@code cgroups}, {@code preexec} once started; {@code exited}, {@code reaped} at the end.
     */
    public java.util.Map<String, Long> stamps() {
        return java.util.Map.copyOf(status.stamps);
    }

    /** Blocks until the launcher has exited. */
    public ExitOutcome waitFor() {
        return join(status.exit);
    }

    public Optional<ExitOutcome> waitFor(Duration timeout) {
        try {
            return Optional.of(status.exit.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The launcher's own exit status (blocks until it exits): 121 refused, 126/127 exec failed, else the program's. */
    public int launcherExitCode() {
        waitFor();
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the launcher", e);
        }
    }

    /** Graceful: SIGTERM to the launcher (forwarded per the plan's SIGNALS). Immediate: SIGKILL (lifeline). */
    public void terminate(boolean graceful) {
        process.signal(graceful ? LauncherHandle.SIGTERM : LauncherHandle.SIGKILL);
    }

    /** Every status line received so far, for diagnostics. */
    public List<String> transcript() {
        synchronized (status.lines) {
            return List.copyOf(status.lines);
        }
    }

    /** Cuts the lifeline: the launcher kills the whole tree if it is still running. */
    @Override
    public void close() {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            process.signal(LauncherHandle.SIGKILL);
        }
    }

    private static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the launcher", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }
}
