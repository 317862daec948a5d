package io.aasm.cli.launcher.resident;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code aasm daemon start|stop|status}: talks to the resident kernel over its socket without booting
 * a framework (so these answer in a JVM start). {@code daemon run} (the kernel itself, in the
 * foreground, as systemd runs it) is booted by {@code Main}.
 */
public final class DaemonControl {
    /** {@code aasm daemon status} when no kernel runs (the LSB "program is not running" status). */
    public static final int NOT_RUNNING = 3;
    private static final int FAILED = 125;
    private static final int USAGE = 2;

    private DaemonControl() {
    }

    public static boolean isRun(String[] args) {
        return args.length == 2 && args[0].equals("daemon") && args[1].equals("run");
    }

    public static int control(String[] args, PrintStream out, PrintStream err) {
        String verb = args.length == 2 ? args[1] : "";
        Path sock = ResidentPath.socket();
        try {
            switch (verb) {
                case "status":
                    Optional<String> s = ask(sock, 'Q');
                    out.println(s.map(v -> "aasm daemon: " + v).orElse("aasm daemon: not running (no kernel at " + sock + ")"));
                    return s.isPresent() ? 0 : NOT_RUNNING;
                case "stop":
                    return stop(sock, out);
                case "start":
                    return start(sock, out, err);
                default:
                    err.println("aasm: usage: aasm daemon start|stop|status|run");
                    return USAGE;
            }
        } catch (IOException e) {
            err.println("aasm daemon: " + e.getMessage());
            return FAILED;
        }
    }

    private static int stop(Path sock, PrintStream out) throws IOException {
        Optional<String> said = ask(sock, 'T');
        if (said.isEmpty()) {
            out.println("aasm daemon: not running (no kernel at " + sock + ")");
            return 0;
        }
        for (int i = 0; i < 200 && Files.exists(sock); i++) {
            sleep(50);
        }
        out.println(said.get().replace("aasm: stopping", "aasm daemon: stopped"));
        return 0;
    }

    private static int start(Path sock, PrintStream out, PrintStream err) throws IOException {
        Optional<String> running = ask(sock, 'Q');
        if (running.isPresent()) {
            out.println("aasm daemon: already " + running.get());
            return 0;
        }
        ResidentPath.prepareDirectory(sock);
        File log = sock.resolveSibling("aasm-daemon.log").toFile();
        Process p = new ProcessBuilder(daemonCommand()).redirectInput(new File("/dev/null"))
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).redirectErrorStream(true).start();
        long deadline = System.nanoTime() + Long.getLong("aasm.daemon.start.timeout.ms", 60_000) * 1_000_000;
        while (System.nanoTime() < deadline) {
            Optional<String> s = ask(sock, 'Q');
            if (s.isPresent()) {
                out.println("aasm daemon: started, " + s.get() + " (log: " + log + ")");
                return 0;
            }
            if (!p.isAlive() && p.exitValue() != 0) {
                break;
            }
            sleep(50);
        }
        err.println("aasm daemon: the resident kernel did not come up; see " + log);
        return FAILED;
    }

    /** The command line of this JVM with {@code daemon run} in place of its own arguments, detached. */
    private static List<String> daemonCommand() {
        ProcessHandle.Info info = ProcessHandle.current().info();
        List<String> cmd = new ArrayList<>();
        if (new File("/usr/bin/setsid").canExecute()) {
            cmd.add("/usr/bin/setsid"); // own session: a closing terminal's SIGHUP must not end the kernel
        }
        cmd.add(info.command().orElseThrow(() -> new IllegalStateException("cannot read this JVM's command")));
        String[] jvmArgs = info.arguments().orElse(new String[0]);
        for (int i = 0; i < jvmArgs.length; i++) {
            if (jvmArgs[i].startsWith("-XX:TieredStopAtLevel")) {
                continue; // a long-lived kernel is worth full (C2) compilation
            }
            cmd.add(jvmArgs[i]);
            if (jvmArgs[i].equals("-jar") && i + 1 < jvmArgs.length) {
                cmd.add(jvmArgs[i + 1]);
                break;
            }
        }
        cmd.add("daemon");
        cmd.add("run");
        return cmd;
    }

    /** Sends a {@code Q}/{@code T} request; empty when no kernel listens (absent or stale socket). */
    public static Optional<String> ask(Path sock, char kind) throws IOException {
        if (!Files.exists(sock)) {
            return Optional.empty();
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            try {
                ch.connect(UnixDomainSocketAddress.of(sock));
            } catch (IOException e) {
                return Optional.empty(); // refused: a stale socket; `daemon start` replaces it
            }
            ch.write(ByteBuffer.wrap(new byte[] {'A', 'A', 'S', 'M', (byte) kind, 0, 0, 0, 0}));
            ByteBuffer head = readN(ch, 5);
            byte type = head.get(0);
            int len = head.getInt(1);
            String text = new String(readN(ch, len).array(), StandardCharsets.UTF_8);
            if (type == 'E') {
                throw new IOException(text);
            }
            return Optional.of(text);
        }
    }

    private static ByteBuffer readN(SocketChannel ch, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("the resident kernel closed the connection mid-answer");
            }
        }
        return b.flip();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
