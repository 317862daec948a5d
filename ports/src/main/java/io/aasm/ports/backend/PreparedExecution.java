package io.aasm.ports.backend;

import io.aasm.ports.plan.EnforcementPlan;
import java.util.Objects;

/** A plan the backend has fully prepared (every resource opened, every check passed). */
public record PreparedExecution(EnforcementPlan plan, String token) {
    public PreparedExecution {
        Objects.requireNonNull(plan);
        Objects.requireNonNull(token);
    }
}
