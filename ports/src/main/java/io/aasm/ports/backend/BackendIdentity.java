package io.aasm.ports.backend;

import java.util.Objects;

/** A backend's identity: its stable id (for example {@code aasm-native}), version and provenance. */
public record BackendIdentity(String id, String version, Provenance provenance) {
    public BackendIdentity {
        Objects.requireNonNull(id);
        Objects.requireNonNull(version);
        Objects.requireNonNull(provenance);
        if (!id.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("backend id must be lower-case letters, digits and dashes: " + id);
        }
    }
}
