package io.aasm.cli.internal.resident;

import io.aasm.ports.backend.Stdio;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.ToIntFunction;

/**
 * One client connection: checks the peer's uid, identifies whether the peer runs inside a boundary
 * (from what the kernel observes, never from what the client says), reads the request and its three
 * descriptors, runs the same command layer as the cold path with the client's argv, environment,
 * working directory and streams, and sends the exit status. A second thread reads the client's signal
 * frames; the end of the connection before the status was sent means the client is gone, and the
 * confined tree goes too.
 *
 * <p>A confined caller never gets a launch from this kernel, which runs outside its boundary: its run
 * is answered {@code F} (the client then runs the cold path, whose JVM stays inside the caller's own
 * boundary, and so does whatever it launches); its stop and status requests are refused.
 */
final class Connection implements Runnable {
    private final int fd;
    private final Server server;
    private final ExecutorService pool;
    // the signal reader must be off the socket before its descriptor number can be closed and reused
    private final CountDownLatch readerDone = new CountDownLatch(1);
    private volatile boolean readerStarted;

    Connection(int fd, Server server, ExecutorService pool) {
        this.fd = fd;
        this.server = server;
        this.pool = pool;
    }

    /** What a connection needs from the server that accepted it. */
    interface Server {
        int uid();

        String socketPath();

        /** The installation this kernel was started from ({@code aasm.home}), if known. */
        String home();

        ToIntFunction<Map<String, Object>> entry();

        String status();

        void stopSoon();

        /** Pins the peer of {@code fd} (SO_PEERCRED pid {@code pid}) and judges whether it is confined. */
        CallerVerdict identify(int fd, long pid);

        /** One line on the kernel's log (its stderr). */
        void log(String line);
    }

    @Override
    public void run() {
        int[] fds = new int[0];
        try {
            int[] peer = UnixSockets.peer(fd);
            int peerUid = peer[1];
            if (peerUid != server.uid()) {
                // never read what such a peer sent: its descriptors are discarded with the connection
                frame('E', "aasm: the resident kernel at " + server.socketPath() + " serves uid " + server.uid()
                        + " only; refused a connection from uid " + peerUid);
                return;
            }
            CallerVerdict caller = server.identify(fd, peer[0]);
            UnixSockets.Received first = UnixSockets.receiveFirst(fd, 3);
            fds = first.fds();
            byte[] head = new byte[8];
            UnixSockets.readFully(fd, head);
            if (first.firstByte() != 'A' || head[0] != 'A' || head[1] != 'S' || head[2] != 'M') {
                frame('E', "aasm: not an aasm client request; nothing was launched");
                return;
            }
            int len = ((head[4] & 0xff) << 24) | ((head[5] & 0xff) << 16) | ((head[6] & 0xff) << 8) | (head[7] & 0xff);
            if (len < 0 || len > Request.MAX_PAYLOAD) {
                frame('E', "aasm: request too large (" + Integer.toUnsignedString(len) + " bytes); nothing was launched");
                return;
            }
            byte[] payload = new byte[len];
            UnixSockets.readFully(fd, payload);
            if (caller.confined()) {
                answerConfined(head[3], caller);
                return;
            }
            switch (head[3]) {
                case 'Q' -> frame('I', server.status());
                case 'T' -> {
                    frame('I', "aasm: stopping the resident kernel (" + server.status() + ")");
                    server.stopSoon();
                }
                case 'R' -> runCommand(payload, fds);
                default -> frame('E', "aasm: unknown request kind '" + (char) head[3] + "'; nothing was launched");
            }
        } catch (IOException | RuntimeException e) {
            try {
                frame('E', "aasm: resident kernel: " + e.getMessage() + "; nothing was launched");
            } catch (IOException ignored) {
                // the client is gone; nothing to tell
            }
        } finally {
            for (int d : fds) {
                UnixSockets.closeQuietly(d);
            }
            Libc.C.shutdown(fd, Libc.SHUT_RDWR);
            if (readerStarted) {
                try {
                    readerDone.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            UnixSockets.closeQuietly(fd);
        }
    }

    /** Run: cold, inside the caller's own boundary. Stop and status: refused. Each decision is logged. */
    private void answerConfined(byte kind, CallerVerdict caller) throws IOException {
        String inside = "a caller inside a boundary the kernel is not in (pid " + caller.pid() + ": " + caller.why() + ")";
        switch (kind) {
            case 'R' -> {
                server.log("run request from " + inside + " answered cold");
                frame('F', "aasm: the resident kernel does not launch for " + inside
                        + "; running cold, inside the caller's own boundary");
            }
            case 'T' -> {
                server.log("stop request from " + inside + " refused");
                frame('E', "aasm: the resident kernel refuses to stop for " + inside);
            }
            case 'Q' -> {
                server.log("status request from " + inside + " refused");
                frame('E', "aasm: the resident kernel does not answer status requests from " + inside);
            }
            default -> frame('E', "aasm: unknown request kind '" + (char) kind + "'; nothing was launched");
        }
    }

    private void runCommand(byte[] payload, int[] fds) throws IOException {
        if (fds.length != 3) {
            frame('E', "aasm: the client sent " + fds.length + " descriptors instead of stdin, stdout and stderr;"
                    + " nothing was launched");
            return;
        }
        Request req;
        try {
            req = Request.parse(payload);
        } catch (IllegalArgumentException e) {
            frame('E', "aasm: malformed client request: " + e.getMessage() + "; nothing was launched");
            return;
        }
        if (server.home() != null && !server.home().equals(req.home())) {
            // another installation's client: its bundles and conf/ are not what this kernel runs
            frame('F', "aasm: the resident kernel at " + server.socketPath() + " serves " + server.home()
                    + ", not " + req.home() + "; running cold");
            return;
        }
        AtomicInteger firstSignal = new AtomicInteger();
        AtomicReference<IntConsumer> onSignal = new AtomicReference<>();
        AtomicInteger done = new AtomicInteger();
        readerStarted = true;
        pool.execute(() -> {
            try {
                new SignalRelay(fd, firstSignal, onSignal, done).run();
            } finally {
                readerDone.countDown();
            }
        });
        PrintStream out = new PrintStream(new BufferedOutputStream(new FdOutputStream(fds[1]), 8192), true);
        PrintStream err = new PrintStream(new BufferedOutputStream(new FdOutputStream(fds[2]), 8192), true);
        int status;
        try {
            Map<String, Object> call = new HashMap<>();
            call.put("args", req.args().toArray(new String[0]));
            call.put("in", new FdInputStream(fds[0]));
            call.put("out", out);
            call.put("err", err);
            call.put("env", req.env());
            call.put("cwd", req.cwd());
            call.put("firstSignal", firstSignal);
            call.put("onSignal", onSignal);
            call.put("frameworkErrors", List.of());
            call.put("stdio", new Stdio.Descriptors(fds[0], fds[1], fds[2]));
            status = server.entry().applyAsInt(call);
        } finally {
            out.flush();
            err.flush();
            done.set(1);
        }
        byte[] x = {'X', (byte) (status >>> 24), (byte) (status >>> 16), (byte) (status >>> 8), (byte) status};
        UnixSockets.write(fd, x);
    }

    private void frame(char kind, String text) throws IOException {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        byte[] f = new byte[5 + t.length];
        f[0] = (byte) kind;
        f[1] = (byte) (t.length >>> 24);
        f[2] = (byte) (t.length >>> 16);
        f[3] = (byte) (t.length >>> 8);
        f[4] = (byte) t.length;
        System.arraycopy(t, 0, f, 5, t.length);
        UnixSockets.write(fd, f);
    }
}
