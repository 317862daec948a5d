package io.aasm.ports.backend;

import io.aasm.ports.capability.Token;

/** Whether the backend binary in use is one whose digest was pinned. */
public enum ProvenanceStatus implements Token {
    FIRST_PARTY("first_party"),
    VERIFIED("verified"),
    UNVERIFIED("unverified");

    private final String token;

    ProvenanceStatus(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
