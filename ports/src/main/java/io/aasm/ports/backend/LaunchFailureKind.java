package io.aasm.ports.backend;

import io.aasm.ports.capability.Token;

/** Why a program never started. */
public enum LaunchFailureKind implements Token {
    NOT_FOUND("not_found"),
    NOT_EXECUTABLE("not_executable"),
    BOUNDARY_REFUSED("boundary_refused"),
    BACKEND_ERROR("backend_error");

    private final String token;

    LaunchFailureKind(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
