package io.aasm.ports.backend;

import java.util.Objects;

/** An opaque handle to a running confined tree; no pid or descriptor crosses the port. */
public record ExecutionHandle(String backendId, String token) {
    public ExecutionHandle {
        Objects.requireNonNull(backendId);
        Objects.requireNonNull(token);
    }
}
