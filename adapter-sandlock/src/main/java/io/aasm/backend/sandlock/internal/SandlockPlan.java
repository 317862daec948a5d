package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.report.DescriptorInventory;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One launch's answer: capabilities narrowed to its scopes, the flags each stated domain lowers to
 * (the ones prepare installs), and what aasm hands sandlock (stdio; the status descriptor as a residual
 * until observed closed).
 */
record SandlockPlan(BackendCapabilities capabilities, Map<CapabilityDomain, DomainLowering> lowered,
                    DescriptorInventory descriptors) implements BackendPlan {
    SandlockPlan {
        lowered = Map.copyOf(lowered);
    }

    @Override
    public List<String> steps(ControlRequirement requirement) {
        DomainLowering l = lowered.get(requirement.domain());
        if (l == null) {
            return List.of();
        }
        return l instanceof DomainLowering.Flags f ? f.steps()
                : List.of("cannot lower: " + ((DomainLowering.Inexpressible) l).reason());
    }

    @Override
    public Optional<DescriptorInventory> plannedDescriptors() {
        return Optional.of(descriptors);
    }
}
