package io.aasm.ports.capability;

import java.util.Objects;

/** One condition a domain's control depends on, and whether it was observed to hold. */
public record Prerequisite(String requirement, PrerequisiteStatus status) {
    public Prerequisite {
        Objects.requireNonNull(requirement, "requirement");
        Objects.requireNonNull(status, "status");
    }

    public boolean satisfied() {
        return status instanceof PrerequisiteStatus.Satisfied;
    }
}
