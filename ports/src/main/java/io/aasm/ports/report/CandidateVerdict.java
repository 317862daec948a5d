package io.aasm.ports.report;

import io.aasm.ports.capability.Token;

/** What the selection decided about one candidate backend. */
public enum CandidateVerdict implements Token {
    SELECTED("selected"),
    REJECTED_UNAVAILABLE("rejected_unavailable"),
    REJECTED_REQUIREMENTS_UNMET("rejected_requirements_unmet"),
    REJECTED_BACKEND_FAULT("rejected_backend_fault"),
    NOT_INSTALLED("not_installed");

    private final String token;

    CandidateVerdict(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
