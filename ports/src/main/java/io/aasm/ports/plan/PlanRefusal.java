package io.aasm.ports.plan;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A backend cannot plan this launch: either it is unavailable here ({@code backendUnavailable}), or
 * it lists <em>every</em> required requirement it cannot meet.
 */
public record PlanRefusal(String backendId, Optional<String> backendUnavailable, List<UnmetRequirement> unmet) {
    public PlanRefusal {
        Objects.requireNonNull(backendId);
        Objects.requireNonNull(backendUnavailable);
        unmet = List.copyOf(unmet);
        if (backendUnavailable.isEmpty() && unmet.isEmpty()) {
            throw new IllegalArgumentException("a refusal needs a reason");
        }
    }
}
