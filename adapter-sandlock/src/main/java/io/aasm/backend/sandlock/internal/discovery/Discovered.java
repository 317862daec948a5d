package io.aasm.backend.sandlock.internal.discovery;

import io.aasm.ports.backend.ProvenanceStatus;
import java.nio.file.Path;
import java.util.Objects;

/** The outcome of looking for a usable sandlock: found (with its identity) or unavailable (with why). */
public sealed interface Discovered {
    /** A usable executable: version, digest of the very file found, and whether that digest is pinned. */
    record Found(Path executable, Version version, String sha256, ProvenanceStatus provenance, String checkReport)
            implements Discovered {
        public Found {
            Objects.requireNonNull(executable);
            Objects.requireNonNull(version);
            Objects.requireNonNull(sha256);
            Objects.requireNonNull(provenance);
            Objects.requireNonNull(checkReport);
        }
    }

    /**
     * Not usable; {@code reason} says what is wrong and how to fix it. A version and digest are kept
     * when they were established before the failing check, so the identity can still show them.
     */
    record Unavailable(String reason, java.util.Optional<Version> version, java.util.Optional<String> sha256)
            implements Discovered {
        public Unavailable {
            Objects.requireNonNull(reason);
            Objects.requireNonNull(version);
            Objects.requireNonNull(sha256);
        }

        static Unavailable because(String reason) {
            return new Unavailable(reason, java.util.Optional.empty(), java.util.Optional.empty());
        }
    }
}
