package io.aasm.transport.proxy.internal.session;

import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.EgressVerdict;
import java.time.Instant;
import java.util.Optional;

/** One connection attempt while it is in progress; becomes an {@link EgressDecision} when it is over. */
final class Attempt {
    private final String launchId;
    private final Instant time = Instant.now();
    private final long started = System.nanoTime();
    private String protocol = "unknown";
    private String destination = "-";
    private int port;
    private Optional<String> resolved = Optional.empty();
    private EgressVerdict verdict = EgressVerdict.DENIED;
    private Optional<String> grant = Optional.empty();
    private Optional<String> reason = Optional.empty();
    long bytesUp;
    long bytesDown;

    Attempt(String launchId) {
        this.launchId = launchId;
    }

    Attempt protocol(String p) {
        protocol = p;
        return this;
    }

    Attempt destination(String host, int p) {
        destination = host;
        port = p < 0 || p > 65535 ? 0 : p;
        return this;
    }

    Attempt resolved(String addresses) {
        resolved = Optional.of(addresses);
        return this;
    }

    Attempt admitted(String g) {
        verdict = EgressVerdict.ALLOWED;
        grant = Optional.of(g);
        return this;
    }

    /** Why it was denied; or, once admitted, why it did not complete (a failed dial, a reset). */
    Attempt reason(String r) {
        if (reason.isEmpty()) {
            reason = Optional.of(r);
        }
        return this;
    }

    boolean admitted() {
        return verdict == EgressVerdict.ALLOWED;
    }

    EgressDecision done() {
        return new EgressDecision(time, launchId, protocol, destination, port, resolved, verdict, grant,
                verdict == EgressVerdict.DENIED && reason.isEmpty() ? Optional.of("denied") : reason, bytesUp,
                bytesDown, System.nanoTime() - started);
    }
}
