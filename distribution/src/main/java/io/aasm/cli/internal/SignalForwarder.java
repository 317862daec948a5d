package io.aasm.cli.internal;

import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.kernel.LaunchSession;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Forwards the launcher's signals to a running session: the first asks for a graceful end, any
 * further one for an immediate end. A signal that arrived between the pre-launch check and the
 * installation of the forwarder is replayed, so none is lost.
 */
final class SignalForwarder {
    static final int SIGWINCH = 28;

    private SignalForwarder() {
    }

    static void install(CliIo io, LaunchSession session) {
        AtomicInteger count = new AtomicInteger();
        boolean debug = io.env().containsKey("AASM_DEBUG");
        io.onSignal().set(signal -> {
            if (signal == SIGWINCH) {
                session.signal(signal); // the caller's terminal changed size: no request to end
                return;
            }
            TerminationRequest r = count.incrementAndGet() == 1 ? TerminationRequest.GRACEFUL : TerminationRequest.IMMEDIATE;
            boolean delivered = session.terminate(r);
            if (debug) {
                io.err().println("aasm: signal " + signal + " forwarded as " + r.token() + ", delivered=" + delivered);
            }
        });
        if (io.firstSignal().get() != 0 && count.get() == 0) {
            count.incrementAndGet();
            session.terminate(TerminationRequest.GRACEFUL);
        }
    }
}
