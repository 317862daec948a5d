package io.aasm.ports.report;

import io.aasm.ports.capability.Token;

/** Why a domain is unmeasured. */
public enum UnmeasuredReason implements Token {
    NO_BACKEND_SELECTED("no_backend_selected"),
    NO_CONTROL_REQUESTED("no_control_requested"),
    INCONCLUSIVE("inconclusive");

    private final String token;

    UnmeasuredReason(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
