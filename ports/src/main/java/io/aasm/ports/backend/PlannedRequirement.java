package io.aasm.ports.backend;

import io.aasm.ports.policy.ControlRequirement;
import java.util.List;
import java.util.Objects;

/** One requirement, its outcome, and the backend-authored steps that install it (rendered, never parsed). */
public record PlannedRequirement(ControlRequirement requirement, RequirementOutcome outcome, List<String> lowering) {
    public PlannedRequirement {
        Objects.requireNonNull(requirement);
        Objects.requireNonNull(outcome);
        lowering = List.copyOf(lowering);
    }
}
