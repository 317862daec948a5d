package io.aasm.cli.internal;

import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.kernel.LaunchSession;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Forwards the boot jar's signals to a running session: the first reaches the program as the signal
 * that was sent (SIGINT stays SIGINT, so the program's status is 130, not 143), or as a graceful end
 * where the backend cannot deliver it; any further one ends the tree at once. A signal that arrived
 * between the pre-launch check and the installation of the forwarder is replayed, so none is lost; so is a
 * window change that {@link EarlyWindowChange} saw meanwhile.
 */
final class SignalForwarder {
    static final int SIGWINCH = 28;

    private SignalForwarder() {
    }

    static void install(CliIo io, LaunchSession session) {
        AtomicInteger count = new AtomicInteger();
        boolean debug = io.env().containsKey("AASM_DEBUG");
        IntConsumer before = io.onSignal().getAndSet(signal -> {
            if (signal == SIGWINCH) {
                session.signal(signal); // the caller's terminal changed size: no request to end
                return;
            }
            boolean first = count.incrementAndGet() == 1;
            String as = first ? "itself" : TerminationRequest.IMMEDIATE.token();
            boolean delivered = first ? forward(session, signal) : session.terminate(TerminationRequest.IMMEDIATE);
            if (debug) {
                io.err().println("aasm: signal " + signal + " forwarded as " + as + ", delivered=" + delivered);
            }
        });
        if (before instanceof EarlyWindowChange w && w.seen()) {
            session.signal(SIGWINCH); // the size changed after the launcher copied it: copy it again
        }
        int early = io.firstSignal().get();
        if (early != 0 && count.get() == 0) {
            count.incrementAndGet();
            forward(session, early);
        }
    }

    private static boolean forward(LaunchSession session, int signal) {
        return session.signal(signal) || session.terminate(TerminationRequest.GRACEFUL);
    }
}
