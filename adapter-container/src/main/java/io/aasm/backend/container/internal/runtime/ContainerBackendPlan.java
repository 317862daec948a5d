package io.aasm.backend.container.internal.runtime;

import io.aasm.backend.container.internal.lower.Lowering;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.evidence.ProcessAuthority;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One launch lowered once: the capabilities narrowed to its scopes and the container plan, whose steps the
 * kernel shows, so what the plan says is what {@code prepare} creates. The descriptor and authority
 * guarantees are offered only when the probes observed them in a container on this host.
 */
public record ContainerBackendPlan(ExecutionSpec spec, BackendCapabilities capabilities, Optional<Lowering> lowering,
                                   Optional<DescriptorInventory> plannedDescriptors,
                                   Optional<ProcessAuthority> plannedAuthority) implements BackendPlan {

    public ContainerBackendPlan {
        Objects.requireNonNull(spec);
        Objects.requireNonNull(capabilities);
        Objects.requireNonNull(lowering);
        Objects.requireNonNull(plannedDescriptors);
        Objects.requireNonNull(plannedAuthority);
    }

    /** A plan lowered with a proxy port carries the launch's mediation (the transport relay, RELAY.md). */
    @Override
    public boolean relaysTransport() {
        return lowering.filter(l -> l instanceof Lowering.Lowered).map(l -> ((Lowering.Lowered) l).plan().proxyPort()
                .isPresent()).orElse(false);
    }

    @Override
    public List<String> steps(ControlRequirement requirement) {
        if (lowering.isEmpty()) {
            return List.of();
        }
        if (lowering.get() instanceof Lowering.Refused r) {
            return r.domain() == requirement.domain() ? List.of("cannot install: " + r.detail()) : List.of();
        }
        return ((Lowering.Lowered) lowering.get()).plan().installed().getOrDefault(requirement.domain(), List.of());
    }
}
