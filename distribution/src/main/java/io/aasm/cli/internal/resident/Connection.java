package io.aasm.cli.internal.resident;

import io.aasm.cli.internal.CommandEntry;
import io.aasm.cli.internal.CommandInvocation;
import io.aasm.cli.internal.wire.ByteSource;
import io.aasm.cli.internal.wire.FrameException;
import io.aasm.cli.internal.wire.Frames;
import io.aasm.ports.backend.Stdio;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * One client connection: checks the peer's uid, identifies whether the peer runs inside a boundary
 * (from what the kernel observes, never from what the client says), reads the request ({@link Frames})
 * and its three descriptors, runs the same command layer as the cold path with the client's argv,
 * environment, working directory and streams, and sends the exit status. A second thread reads the
 * client's signal frames; the end of the connection before the status was sent means the client is
 * gone, and the confined tree goes too. A malformed request is answered {@code E} with what is wrong,
 * and nothing runs.
 *
 * <p>A confined caller never gets a launch from this kernel, which runs outside its boundary: its run
 * is answered {@code F} (the client then runs the cold path, whose JVM stays inside the caller's own
 * boundary, and so does whatever it launches); its stop and status requests are refused.
 */
final class Connection implements Runnable {
    private final int fd;
    private final Server server;
    private final ExecutorService pool;
    private final ByteSource source;
    // the signal reader must be off the socket before its descriptor number can be closed and reused
    private final CountDownLatch readerDone = new CountDownLatch(1);
    private volatile boolean readerStarted;

    Connection(int fd, Server server, ExecutorService pool) {
        this.fd = fd;
        this.server = server;
        this.pool = pool;
        this.source = (b, off, len) -> UnixSockets.read(fd, b, off, len);
    }

    /** What a connection needs from the server that accepted it. */
    interface Server {
        int uid();

        String socketPath();

        /** The installation this kernel was started from ({@code aasm.home}), if known. */
        String home();

        CommandEntry entry();

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
            if (peer[1] != server.uid()) {
                // never read what such a peer sent: its descriptors are discarded with the connection
                send(Frames.text(Frames.ERROR, "aasm: the resident kernel at " + server.socketPath() + " serves uid "
                        + server.uid() + " only; refused a connection from uid " + peer[1]));
                return;
            }
            CallerVerdict caller = server.identify(fd, peer[0]);
            UnixSockets.Received first = UnixSockets.receiveFirst(fd, 3);
            fds = first.fds();
            Frames.RequestHead head = Frames.requestHead(first.firstByte(), source);
            byte[] payload = Frames.payload(head, source);
            if (caller.confined()) {
                answerConfined(head.kind(), caller);
                return;
            }
            switch (head.kind()) {
                case Frames.STATUS -> send(Frames.text(Frames.INFO, server.status()));
                case Frames.STOP -> {
                    send(Frames.text(Frames.INFO, "aasm: stopping the resident kernel (" + server.status() + ")"));
                    server.stopSoon();
                }
                default -> runCommand(payload, fds, peer);
            }
        } catch (FrameException | IOException | RuntimeException e) {
            refuse("aasm: resident kernel: " + e.getMessage() + "; nothing was launched");
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
            case Frames.RUN -> {
                server.log("run request from " + inside + " answered cold");
                send(Frames.text(Frames.COLD, "aasm: the resident kernel does not launch for " + inside
                        + "; running cold, inside the caller's own boundary"));
            }
            case Frames.STOP -> {
                server.log("stop request from " + inside + " refused");
                send(Frames.text(Frames.ERROR, "aasm: the resident kernel refuses to stop for " + inside));
            }
            default -> {
                server.log("status request from " + inside + " refused");
                send(Frames.text(Frames.ERROR, "aasm: the resident kernel does not answer status requests from " + inside));
            }
        }
    }

    private void runCommand(byte[] payload, int[] fds, int[] peer) throws IOException {
        if (fds.length != 3) {
            refuse("aasm: the client sent " + fds.length + " descriptors instead of stdin, stdout and stderr;"
                    + " nothing was launched");
            return;
        }
        Request req;
        try {
            req = Request.parse(payload);
        } catch (IllegalArgumentException e) {
            refuse("aasm: malformed client request: " + e.getMessage() + "; nothing was launched");
            return;
        }
        if (server.home() != null && !server.home().equals(req.home())) {
            // another installation's client: its bundles and conf/ are not what this kernel runs
            send(Frames.text(Frames.COLD, "aasm: the resident kernel at " + server.socketPath() + " serves "
                    + server.home() + ", not " + req.home() + "; running cold"));
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
            status = server.entry().execute(new CommandInvocation(req.args(), req.cwd(), req.env(),
                    new FdInputStream(fds[0]), out, err, new Stdio.Descriptors(fds[0], fds[1], fds[2]),
                    new CommandInvocation.Caller(CommandInvocation.Face.RESIDENT, peer[0], peer[1]),
                    firstSignal, onSignal, List.of()));
        } finally {
            out.flush();
            err.flush();
            done.set(1);
        }
        send(Frames.exit(status));
    }

    /** An {@code E} answer, if the client still listens; the connection closes after it either way. */
    private void refuse(String text) {
        try {
            send(Frames.text(Frames.ERROR, text));
        } catch (IOException ignored) {
            // the client is gone; nothing to tell
        }
    }

    private void send(byte[] frame) throws IOException {
        UnixSockets.write(fd, frame);
    }
}
