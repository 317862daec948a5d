package io.aasm.cli.internal.resident;

import io.aasm.ports.trace.LaunchStages;
import io.aasm.cli.internal.CommandInvocation;
import io.aasm.cli.internal.EarlyWindowChange;
import io.aasm.cli.internal.wire.Frames;
import io.aasm.ports.backend.Stdio;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * A connection's run request, once framed: parsed within the kernel's limits, sent cold when it is
 * another installation's, else admitted to a launch slot (at once, after waiting in the bounded queue,
 * or refused {@code B}) and handed to the command layer with the client's argv, environment, working
 * directory and three descriptors. The client's signal frames are read meanwhile ({@link SignalRelay}).
 */
final class RunRequest {
    private final int fd;
    private final Connection.Server server;
    private final RequestLog.Entry entry;
    private final Consumer<Runnable> startReader;

    RunRequest(int fd, Connection.Server server, RequestLog.Entry entry, Consumer<Runnable> startReader) {
        this.fd = fd;
        this.server = server;
        this.entry = entry;
        this.startReader = startReader;
    }

    void serve(byte[] payload, int[] fds, int[] peer) throws IOException {
        if (fds.length != 3) {
            outcome("malformed", "descriptors");
            refuse("aasm: the client sent " + fds.length + " descriptors instead of stdin, stdout and stderr;"
                    + " nothing was launched");
            return;
        }
        Request req;
        try {
            req = Request.parse(payload, server.limits());
        } catch (RequestException e) {
            outcome("malformed", e.reason());
            refuse("aasm: malformed client request: " + e.getMessage() + "; nothing was launched");
            return;
        }
        entry.arguments(req.args()).put("envc", req.env().size());
        LaunchStages.mark("request_parse");
        if (server.home() != null && !server.home().equals(req.home())) {
            // another installation's client: its bundles and conf/ are not what this kernel runs
            outcome("cold", "other_installation");
            send(Frames.text(Frames.COLD, "aasm: the resident kernel at " + server.socketPath() + " serves "
                    + server.home() + ", not " + req.home() + "; running cold"));
            return;
        }
        AtomicInteger firstSignal = new AtomicInteger();
        AtomicReference<IntConsumer> onSignal = new AtomicReference<>();
        // The client relays window changes from its start: one before the program's forwarder exists is kept.
        EarlyWindowChange.installIn(onSignal);
        AtomicInteger done = new AtomicInteger();
        startReader.accept(new SignalRelay(fd, firstSignal, onSignal, done));
        try {
            Admission.Slot slot;
            try {
                Admission a = server.admission();
                slot = a.enterLaunch(() -> firstSignal.get() != 0, () -> server.log("a run request (pid " + peer[0]
                        + ") waits for a launch slot: " + a.running() + " running, " + a.waiting() + " waiting"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                slot = Admission.Slot.ABANDONED;
            }
            LaunchStages.mark("admission");
            switch (slot) {
                case QUEUE_FULL -> {
                    outcome("refused", "launch_queue");
                    server.log("refused a run request: " + server.admission().queueRefusal());
                    send(Frames.text(Frames.BUSY, server.admission().queueRefusal()));
                }
                case ABANDONED -> {
                    // the client left or was signalled while it waited: nothing was started for it
                    outcome("abandoned", "signal_" + firstSignal.get());
                    send(Frames.exit(128 + firstSignal.get()));
                }
                default -> {
                    try {
                        launch(req, fds, peer, firstSignal, onSignal);
                    } finally {
                        server.admission().releaseLaunch();
                    }
                }
            }
        } finally {
            done.set(1);
        }
    }

    private void launch(Request req, int[] fds, int[] peer, AtomicInteger firstSignal,
            AtomicReference<IntConsumer> onSignal) throws IOException {
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
        }
        outcome("accepted", null);
        entry.put("status", status);
        send(Frames.exit(status));
        LaunchStages.mark("status_sent");
    }

    private void outcome(String event, String reason) {
        entry.outcome(event, reason);
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
