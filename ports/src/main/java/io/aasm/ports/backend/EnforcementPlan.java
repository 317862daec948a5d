package io.aasm.ports.backend;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.transport.MediationSession;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A negotiated plan a backend will install. Built by the kernel's negotiation only; {@code backendPlan} is
 * what the chosen backend's {@code plan(spec)} returned, handed back to its {@code prepare}. {@code mediation} is
 * the transport mediation session the kernel opened for this launch just before {@code prepare} (empty in a
 * decision, and for a launch that is not mediated).
 */
public record EnforcementPlan(
        BackendIdentity backend,
        ExecutionSpec spec,
        List<PlannedRequirement> planned,
        LaunchPosture posture,
        BackendPlan backendPlan,
        Optional<MediationSession> mediation) {

    public EnforcementPlan {
        Objects.requireNonNull(backend);
        Objects.requireNonNull(backendPlan);
        Objects.requireNonNull(spec);
        planned = List.copyOf(planned);
        Objects.requireNonNull(posture);
        Objects.requireNonNull(mediation);
    }

    public EnforcementPlan(BackendIdentity backend, ExecutionSpec spec, List<PlannedRequirement> planned,
                           LaunchPosture posture, BackendPlan backendPlan) {
        this(backend, spec, planned, posture, backendPlan, Optional.empty());
    }

    /** The same plan with the session the backend relays to. */
    public EnforcementPlan withMediation(MediationSession session) {
        return new EnforcementPlan(backend, spec, planned, posture, backendPlan, Optional.of(session));
    }

    /**
     * Whether this launch's traffic goes through transport mediation: the kernel decided so, the backend's plan
     * carries it, and negotiation enforces the network egress requirement it belongs to.
     */
    public boolean mediated() {
        return spec.transport().mediated() && backendPlan.relaysTransport() && planned.stream()
                .anyMatch(p -> p.requirement().domain() == CapabilityDomain.NETWORK_EGRESS
                        && p.outcome() instanceof RequirementOutcome.Enforced);
    }
}
