package io.aasm.ports.plan;

import io.aasm.ports.backend.EnforcementPlan;
import java.util.Objects;

/** Negotiation returns a plan or a refusal. */
public sealed interface PlanResult {
    record Planned(EnforcementPlan plan) implements PlanResult {
        public Planned {
            Objects.requireNonNull(plan);
        }
    }

    record Refused(PlanRefusal refusal) implements PlanResult {
        public Refused {
            Objects.requireNonNull(refusal);
        }
    }
}
