package io.aasm.ports.report;

import io.aasm.ports.capability.Token;

/** How the backend was chosen. */
public enum SelectionMode implements Token {
    NONE("none"),
    EXPLICIT("explicit"),
    AUTOMATIC("automatic"),
    DEFAULT("default");

    private final String token;

    SelectionMode(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
