package io.aasm.ports.policy;

import java.util.Objects;

/** One reason a policy was rejected: where, what is wrong, and what to do about it. */
public record PolicyProblem(SourceLocation where, String message, String hint) {
    public PolicyProblem {
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(hint, "hint");
    }

    /** {@code file:line:column: message (hint)} — the form every front end prints. */
    public String render() {
        return where + ": " + message + (hint.isEmpty() ? "" : " (" + hint + ")");
    }
}
