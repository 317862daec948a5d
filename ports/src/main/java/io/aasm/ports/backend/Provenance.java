package io.aasm.ports.backend;

import java.util.Objects;
import java.util.Optional;

/** Where a backend comes from: source, SPDX licence, whether aasm modifies it, and the digest in use. */
public record Provenance(String source, String license, boolean modified, Optional<String> sha256,
                         ProvenanceStatus status) {
    public Provenance {
        Objects.requireNonNull(source);
        Objects.requireNonNull(license);
        Objects.requireNonNull(sha256);
        Objects.requireNonNull(status);
    }
}
