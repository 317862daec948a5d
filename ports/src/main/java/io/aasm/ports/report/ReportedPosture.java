package io.aasm.ports.report;

import io.aasm.ports.capability.Token;

/** The launch posture shown to people. An empty requirement set is never READY. */
public enum ReportedPosture implements Token {
    READY("ready"),
    DEGRADED("degraded"),
    REFUSED("refused"),
    NO_BOUNDARY("no_boundary");

    private final String token;

    ReportedPosture(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }

    /** The upper-case label of the human report. */
    public String label() {
        return this == NO_BOUNDARY ? "NO BOUNDARY ESTABLISHED" : name();
    }
}
