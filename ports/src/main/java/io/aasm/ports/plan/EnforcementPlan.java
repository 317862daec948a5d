package io.aasm.ports.plan;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import java.util.List;
import java.util.Objects;

/**
 * A negotiated plan a backend will install. Built by the kernel's negotiation only; {@code backendPlan} is
 * what the chosen backend's {@code plan(spec)} returned, handed back to its {@code prepare}.
 */
public record EnforcementPlan(
        BackendIdentity backend,
        ExecutionSpec spec,
        List<PlannedRequirement> planned,
        LaunchPosture posture,
        BackendPlan backendPlan) {

    public EnforcementPlan {
        Objects.requireNonNull(backend);
        Objects.requireNonNull(backendPlan);
        Objects.requireNonNull(spec);
        planned = List.copyOf(planned);
        Objects.requireNonNull(posture);
    }
}
