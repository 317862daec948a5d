package io.aasm.ports.transport;

import io.aasm.ports.capability.Token;
import java.util.Objects;

/**
 * Whether a launch's traffic is mediated, as the kernel decided it (carried in the {@code ExecutionSpec}).
 * {@link State#MEDIATED} with a boundary: the backend must let the program's egress leave its boundary only
 * through {@code 127.0.0.1:boundaryPort} (and {@code [::1]:boundaryPort} where the boundary has IPv6), relayed
 * to the session the kernel opens at launch ({@code EnforcementPlan#mediation}). {@code detail} says why, in
 * words for the preview's protection section.
 */
public record TransportMediation(State state, int boundaryPort, String detail) {

    /** In-boundary port of the proxy unless a loopback grant takes it. */
    public static final int DEFAULT_PORT = 3128;

    public enum State implements Token {
        /** The traffic goes through the supervisor's proxy, which admits only granted destinations. */
        MEDIATED("mediated"),
        /** Switched off for this launch ({@code --no-proxy}); the boundary is unchanged. */
        OFF("off"),
        /** Nothing to mediate: no egress is granted beyond what the boundary itself provides, or none is stated. */
        NOT_NEEDED("not_needed");

        private final String token;

        State(String token) {
            this.token = token;
        }

        @Override
        public String token() {
            return token;
        }
    }

    public TransportMediation {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(detail, "detail");
        if (boundaryPort < 0 || boundaryPort > 65535) {
            throw new IllegalArgumentException("boundary port " + boundaryPort);
        }
    }

    public static TransportMediation mediated(int boundaryPort, String detail) {
        return new TransportMediation(State.MEDIATED, boundaryPort, detail);
    }

    public static TransportMediation off(String detail) {
        return new TransportMediation(State.OFF, 0, detail);
    }

    public static TransportMediation notNeeded(String detail) {
        return new TransportMediation(State.NOT_NEEDED, 0, detail);
    }

    /** What a spec built without a decision means: no mediation was asked for. */
    public static TransportMediation notRequested() {
        return off("transport mediation was not requested for this launch");
    }

    public boolean mediated() {
        return state == State.MEDIATED;
    }
}
