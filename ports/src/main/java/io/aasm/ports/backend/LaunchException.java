package io.aasm.ports.backend;

import java.util.Objects;

/** A backend failed to prepare or spawn (a failure, not a negotiation refusal). */
public class LaunchException extends Exception {
    private static final long serialVersionUID = 1L;
    private final LaunchFailureKind kind;

    public LaunchException(LaunchFailureKind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind);
    }

    public LaunchException(LaunchFailureKind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind);
    }

    public LaunchFailureKind kind() {
        return kind;
    }
}
