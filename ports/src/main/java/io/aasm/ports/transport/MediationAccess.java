package io.aasm.ports.transport;

import io.aasm.ports.capability.Token;

/** How the program's connections reach a {@link MediationSession}. */
public enum MediationAccess implements Token {
    /**
     * A backend relays them from inside its boundary: each connection arrives on the session's
     * {@link RelayEndpoint} and begins with the endpoint's preamble. The program's proxy variables point at
     * {@code 127.0.0.1:boundaryPort} inside the boundary.
     */
    RELAY("relay"),
    /**
     * The program connects itself, on this host's loopback (a launch without a boundary): the session listens
     * on {@code 127.0.0.1} and its proxy variables carry the session's credentials.
     */
    LOOPBACK("loopback");

    private final String token;

    MediationAccess(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
