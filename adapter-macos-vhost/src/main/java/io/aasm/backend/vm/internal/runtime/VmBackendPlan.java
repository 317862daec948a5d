package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.lower.VmLowering;
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
 * One launch lowered once for the VM: the capabilities narrowed to its scopes and the lowering of every
 * stated requirement, which {@code prepare} installs as is. No lowering when the backend is unavailable.
 */
public record VmBackendPlan(ExecutionSpec spec, BackendCapabilities capabilities, Optional<VmLowering> lowering)
        implements BackendPlan {

    /** The agent closes every descriptor but the program's stdio pipes before exec, whatever the plan. */
    static final DescriptorInventory SEALED = new DescriptorInventory(true, List.of(0, 1, 2), List.of(), List.of());

    static final ProcessAuthority LEAST = ProcessAuthority.planned("filter", "planned: in the guest the agent empties "
            + "every capability set of the program (bounding and ambient included), locks the securebits when it runs"
            + " as root, sets no_new_privs and installs the seccomp hardening baseline before execve");

    public VmBackendPlan {
        Objects.requireNonNull(spec);
        Objects.requireNonNull(capabilities);
        Objects.requireNonNull(lowering);
    }

    @Override
    public List<String> steps(ControlRequirement requirement) {
        if (lowering.isEmpty()) {
            return List.of();
        }
        if (lowering.get() instanceof VmLowering.Refused r) {
            return r.domain() == requirement.domain() ? List.of("cannot install: " + r.detail()) : List.of();
        }
        return ((VmLowering.Lowered) lowering.get()).launch().installed().getOrDefault(requirement.domain(), List.of());
    }

    /** A plan whose egress grants were lowered to the guest's proxy port carries the launch's mediation. */
    @Override
    public boolean relaysTransport() {
        return lowering.isPresent() && lowering.get() instanceof VmLowering.Lowered l
                && l.launch().proxyPort().isPresent();
    }

    @Override
    public Optional<DescriptorInventory> plannedDescriptors() {
        return Optional.of(SEALED);
    }

    @Override
    public Optional<ProcessAuthority> plannedAuthority() {
        return Optional.of(LEAST);
    }
}
