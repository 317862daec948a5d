package io.aasm.backend.sandlock.internal.guard;

import io.aasm.backend.sandlock.internal.harden.AuthorityDrop;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One running guard: started with the caller's stdio and exactly the given environment, connected to
 * this JVM over a socket in a private 0700 directory (deleted as soon as the guard connected). The
 * connection is the lifeline: when it closes — {@link #close()}, or this JVM dying in any way — the
 * guard kills the whole tree. Status lines are read on a daemon thread.
 */
public final class GuardProcess implements AutoCloseable {
    /**
     * What to start: sandlock's argv (absolute executable first) and the guard's surroundings;
     * {@code authority}, when present, is how the guard empties every capability set before sandlock runs;
     * {@code options} are further guard options (a read-only view: {@code view:read-only}, {@code rw:<path>}).
     */
    public record Start(Path guard, Optional<Path> cgroup, Optional<Path> stateDir, Optional<AuthorityDrop> authority,
                        List<String> options, List<String> sandlockArgv, Map<String, String> environment,
                        Path workingDirectory, ProcessBuilder.Redirect stdin, ProcessBuilder.Redirect stdout,
                        ProcessBuilder.Redirect stderr) {
        public Start {
            options = List.copyOf(options);
            sandlockArgv = List.copyOf(sandlockArgv);
            environment = Map.copyOf(environment);
        }
    }

    private static final long CONNECT_TIMEOUT_MILLIS = 10_000;

    private final Process process;
    private final SocketChannel channel;
    private final GuardReport.Builder lines = new GuardReport.Builder();
    private final CompletableFuture<GuardReport> ended = new CompletableFuture<>();

    private GuardProcess(Process process, SocketChannel channel) {
        this.process = process;
        this.channel = channel;
    }

    public static GuardProcess start(Start s) throws IOException {
        Path dir = privateDir();
        Path socket = dir.resolve("g");
        Process process;
        SocketChannel channel;
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            List<String> cmd = new ArrayList<>(List.of(s.guard().toString(), "unix:" + socket));
            s.cgroup().ifPresent(c -> cmd.add("cgroup:" + c));
            s.stateDir().ifPresent(d -> cmd.add("state:" + d));
            s.authority().ifPresent(a -> cmd.add(a.option()));
            cmd.addAll(s.options());
            cmd.add("--");
            cmd.addAll(s.sandlockArgv());
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(s.workingDirectory().toFile())
                    .redirectInput(s.stdin()).redirectOutput(s.stdout()).redirectError(s.stderr());
            // The guard passes its environment to sandlock, which passes it to the program: exactly the
            // delegated names, never a value on a command line.
            pb.environment().clear();
            pb.environment().putAll(s.environment());
            process = pb.start();
            channel = accept(server, process);
        } finally {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(dir);
        }
        GuardProcess g = new GuardProcess(process, channel);
        Thread reader = new Thread(g::read, "aasm-sandlock-guard-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        return g;
    }

    private void read() {
        if (channel != null) {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.line(line);
                }
            } catch (IOException e) {
                // The channel broke: the guard's exit status below says how it ended.
            }
        }
        try {
            lines.guardExited(process.waitFor());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        close();
        ended.complete(lines.snapshot());
    }

    static SocketChannel accept(ServerSocketChannel server, Process process) throws IOException {
        server.configureBlocking(false);
        long deadline = System.nanoTime() + CONNECT_TIMEOUT_MILLIS * 1_000_000;
        try (Selector selector = Selector.open()) {
            server.register(selector, SelectionKey.OP_ACCEPT);
            while (System.nanoTime() < deadline) {
                // Liveness is read before the accept: a fast program lets the guard connect, run sandlock and
                // exit between two polls, and its connection (with every line it wrote) still waits in the
                // backlog. Reading it after the accept would drop that connection and call the launch unstarted.
                boolean alive = process.isAlive();
                SocketChannel c = server.accept();
                if (c != null) {
                    c.configureBlocking(true);
                    return c;
                }
                if (!alive) {
                    break;
                }
                selector.select(20);
                selector.selectedKeys().clear();
            }
        }
        process.destroyForcibly();
        return null;
    }

    private static Path privateDir() throws IOException {
        // AF_UNIX paths are limited to 107 bytes; 0700 so only this user (and root) could ever connect.
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        Path base = runtime != null && runtime.startsWith("/") && runtime.length() < 60
                && Files.isWritable(Path.of(runtime)) ? Path.of(runtime) : Path.of("/tmp");
        return Files.createTempDirectory(base, "aasm-sg",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    public long pid() {
        return process.pid();
    }

    /**
     * {@code term} (SIGTERM to the tree but sandlock), {@code kill} (the whole tree) or {@code winch} (the
     * caller's window size to the launch's terminal); false once ended.
     */
    public synchronized boolean send(String command) {
        if (channel == null || !channel.isOpen() || ended.isDone()) {
            return false;
        }
        try {
            ByteBuffer b = ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.US_ASCII));
            while (b.hasRemaining()) {
                channel.write(b);
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public GuardReport snapshot() {
        return lines.snapshot();
    }

    public boolean ended() {
        return ended.isDone();
    }

    /** Blocks until the guard has exited and every line it wrote was read. */
    public GuardReport awaitEnd() throws InterruptedException {
        try {
            return ended.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("guard reader failed", e.getCause());
        }
    }

    /** Cuts the lifeline: a guard still running kills the whole tree and exits. */
    @Override
    public synchronized void close() {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        }
    }
}
