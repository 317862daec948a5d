package io.aasm.kernel.internal.negotiation;

import io.aasm.ports.plan.PlanResult;
import io.aasm.ports.backend.PlannedRequirement;
import java.util.List;
import java.util.Objects;

/**
 * The negotiation verdict plus every requirement's outcome, including those of a refused launch:
 * a refusal only lists what is unmet, but a report still shows what the others would have been.
 */
public record Negotiation(PlanResult result, List<PlannedRequirement> outcomes) {
    public Negotiation {
        Objects.requireNonNull(result);
        outcomes = List.copyOf(outcomes);
    }

    public boolean planned() {
        return result instanceof PlanResult.Planned;
    }
}
