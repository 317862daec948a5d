package io.aasm.ports.backend;

import io.aasm.ports.capability.Token;

/** How to end a confined tree: graceful (SIGTERM-like, then forced) or immediate. */
public enum TerminationRequest implements Token {
    GRACEFUL("graceful"),
    IMMEDIATE("immediate");

    private final String token;

    TerminationRequest(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
