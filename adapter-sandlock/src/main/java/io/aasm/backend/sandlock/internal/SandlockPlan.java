package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import java.util.List;
import java.util.Map;

/** One launch's answer: capabilities narrowed to its scopes, and the flags each stated domain lowers to. */
record SandlockPlan(BackendCapabilities capabilities, Map<CapabilityDomain, DomainLowering> lowered)
        implements BackendPlan {
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
}
