package io.aasm.ports.plan;

import io.aasm.ports.backend.RefusalReason;
import io.aasm.ports.policy.ControlRequirement;
import java.util.Objects;

/** A required requirement the backend cannot meet, with its reason token and a sentence. */
public record UnmetRequirement(ControlRequirement requirement, RefusalReason reason, String detail) {
    public UnmetRequirement {
        Objects.requireNonNull(requirement);
        Objects.requireNonNull(reason);
        Objects.requireNonNull(detail);
    }
}
