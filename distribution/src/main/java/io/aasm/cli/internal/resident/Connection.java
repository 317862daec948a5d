package io.aasm.cli.internal.resident;

import io.aasm.ports.trace.LaunchStages;
import io.aasm.cli.internal.CommandEntry;
import io.aasm.cli.internal.wire.FrameException;
import io.aasm.cli.internal.wire.Frames;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One client connection: checks the peer's uid, identifies whether the peer runs inside a boundary
 * (from what the kernel observes, never from what the client says), reads the request ({@link Frames})
 * and its three descriptors, runs the same command layer as the cold path with the client's argv,
 * environment, working directory and streams, and sends the exit status. A second thread reads the
 * client's signal frames; the end of the connection before the status was sent means the client is
 * gone, and the confined tree goes too. A malformed request is answered {@code E} with what is wrong,
 * and nothing runs. A run request is served by {@link RunRequest}; whatever comes of the connection is
 * one line of the {@link RequestLog}, written when it closes.
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
    private final long acceptedNanos;
    private final RequestLog.Entry entry = new RequestLog.Entry();
    private volatile boolean readerStarted;

    Connection(int fd, Server server, ExecutorService pool, long acceptedNanos) {
        this.fd = fd;
        this.server = server;
        this.pool = pool;
        this.acceptedNanos = acceptedNanos;
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

        ResidentLimits limits();

        Admission admission();

        /** The one-JSON-line-per-request log. */
        RequestLog requests();
    }

    @Override
    public void run() {
        int[] fds = new int[0];
        try {
            int[] peer = UnixSockets.peer(fd);
            entry.put("pid", peer[0]).put("uid", peer[1]);
            if (peer[1] != server.uid()) {
                // never read what such a peer sent: its descriptors are discarded with the connection
                outcome("refused", "other_uid");
                send(Frames.text(Frames.ERROR, "aasm: the resident kernel at " + server.socketPath() + " serves uid "
                        + server.uid() + " only; refused a connection from uid " + peer[1]));
                return;
            }
            LaunchStages.begin("accept", acceptedNanos);
            CallerVerdict caller = server.identify(fd, peer[0]);
            LaunchStages.mark("caller_check");
            RequestReader in = new RequestReader(fd, acceptedNanos, server.limits().requestTimeoutMs());
            UnixSockets.Received first = in.first(3);
            fds = first.fds();
            Frames.RequestHead head = Frames.requestHead(first.firstByte(), in, server.limits().maxRequestBytes());
            entry.put("kind", String.valueOf((char) head.kind())).put("bytes", head.length());
            byte[] payload = Frames.payload(head, in);
            LaunchStages.mark("request_read");
            if (caller.confined()) {
                answerConfined(head.kind(), caller);
                return;
            }
            switch (head.kind()) {
                case Frames.STATUS -> {
                    outcome("accepted", null);
                    send(Frames.text(Frames.INFO, server.status()));
                }
                case Frames.STOP -> {
                    outcome("accepted", null);
                    send(Frames.text(Frames.INFO, "aasm: stopping the resident kernel (" + server.status() + ")"));
                    server.stopSoon();
                }
                default -> new RunRequest(fd, server, entry, this::startReader).serve(payload, fds, peer);
            }
        } catch (FrameException e) {
            malformed(e);
        } catch (RequestReader.Late e) {
            malformed(e.frame());
        } catch (IOException | RuntimeException e) {
            outcome("failed", "io");
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
            LaunchStages.finish();
            server.requests().write(entry.put("ms", (System.nanoTime() - acceptedNanos) / 1_000_000L));
        }
    }

    private void malformed(FrameException e) {
        outcome("malformed", e.reason());
        refuse("aasm: resident kernel: " + e.getMessage() + "; nothing was launched");
    }

    /** The request's outcome on its log line: set once, by whichever path decides it. */
    private void outcome(String event, String reason) {
        entry.outcome(event, reason);
    }

    /** Run: cold, inside the caller's own boundary. Stop and status: refused. Each decision is logged. */
    private void answerConfined(byte kind, CallerVerdict caller) throws IOException {
        String inside = "a caller inside a boundary the kernel is not in (pid " + caller.pid() + ": " + caller.why() + ")";
        switch (kind) {
            case Frames.RUN -> {
                outcome("cold", "confined_caller");
                server.log("run request from " + inside + " answered cold");
                send(Frames.text(Frames.COLD, "aasm: the resident kernel does not launch for " + inside
                        + "; running cold, inside the caller's own boundary"));
            }
            case Frames.STOP -> {
                outcome("refused", "confined_caller");
                server.log("stop request from " + inside + " refused");
                send(Frames.text(Frames.ERROR, "aasm: the resident kernel refuses to stop for " + inside));
            }
            default -> {
                outcome("refused", "confined_caller");
                server.log("status request from " + inside + " refused");
                send(Frames.text(Frames.ERROR, "aasm: the resident kernel does not answer status requests from " + inside));
            }
        }
    }

    /** Starts the client's signal reader, which must be off the socket before the connection closes. */
    private void startReader(Runnable relay) {
        readerStarted = true;
        pool.execute(() -> {
            try {
                relay.run();
            } finally {
                readerDone.countDown();
            }
        });
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
