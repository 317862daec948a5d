package io.aasm.backend.landlockseccomp.internal.runtime;

import io.aasm.backend.landlockseccomp.internal.lower.Lowering;
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
 * One launch lowered once: the capabilities narrowed to its scopes, and the lowering of every stated
 * requirement. The steps the kernel shows are read from that lowering, so what the plan says is what
 * {@code prepare} installs. No lowering when the backend is unavailable on this host.
 */
public record LandlockSeccompBackendPlan(ExecutionSpec spec, BackendCapabilities capabilities, Optional<Lowering> lowering)
        implements BackendPlan {

    public LandlockSeccompBackendPlan {
        Objects.requireNonNull(spec);
        Objects.requireNonNull(capabilities);
        Objects.requireNonNull(lowering);
    }

    /** The launcher keeps stdio and seals every other inherited descriptor before exec, whatever the plan. */
    private static final DescriptorInventory SEALED = new DescriptorInventory(true, List.of(0, 1, 2), List.of(),
            List.of());

    /** Every capability set emptied, securebits locked and no_new_privs set before execve, whatever the plan. */
    private static final ProcessAuthority LEAST = ProcessAuthority.planned("filter", "planned: the launcher empties "
            + "every capability set (bounding and ambient included), locks the securebits and sets no_new_privs "
            + "before execve, and installs at least the seccomp hardening baseline");

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

    @Override
    public Optional<DescriptorInventory> plannedDescriptors() {
        return Optional.of(SEALED);
    }

    @Override
    public Optional<ProcessAuthority> plannedAuthority() {
        return Optional.of(LEAST);
    }

    /** The lowering routes egress through the supervisor's proxy (the route of a mediated launch's grants). */
    @Override
    public boolean relaysTransport() {
        return lowering.filter(l -> l instanceof Lowering.Lowered).map(l -> ((Lowering.Lowered) l).plan().proxyPort()
                .isPresent()).orElse(false);
    }
}
