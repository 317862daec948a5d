package io.aasm.kernel.internal.negotiation;

import io.aasm.ports.backend.RefusalReason;
import java.util.Objects;

/** Why one requirement cannot be met by one backend: the reason token and a sentence. */
public record Shortfall(RefusalReason reason, String detail) {
    public Shortfall {
        Objects.requireNonNull(reason);
        Objects.requireNonNull(detail);
    }
}
