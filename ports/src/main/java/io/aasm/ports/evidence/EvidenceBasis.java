package io.aasm.ports.evidence;

import io.aasm.ports.capability.Token;

/** The evidence ladder a report row stands on, weakest first. */
public enum EvidenceBasis implements Token {
    NONE("none"),
    SETUP_ONLY("setup_only"),
    RUNTIME_WITHOUT_DECISION("runtime_without_decision"),
    DECISION("decision");

    private final String token;

    EvidenceBasis(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
