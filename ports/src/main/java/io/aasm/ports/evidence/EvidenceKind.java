package io.aasm.ports.evidence;

import io.aasm.ports.capability.Token;

/** How strong a piece of evidence is: setup facts first, runtime facts after. */
public enum EvidenceKind implements Token {
    CONFIGURED("configured"),
    INSTALLED("installed"),
    EXERCISED("exercised"),
    DECISION("decision"),
    INDEPENDENT_VERIFICATION("independent_verification");

    private final String token;

    EvidenceKind(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }

    public boolean isRuntime() {
        return this == EXERCISED || this == DECISION || this == INDEPENDENT_VERIFICATION;
    }
}
