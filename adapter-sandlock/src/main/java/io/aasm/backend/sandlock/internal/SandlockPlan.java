package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.lower.DomainLowering;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.evidence.ProcessAuthority;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One launch's answer: capabilities narrowed to its scopes, the flags each stated domain lowers to
 * (the ones prepare installs), what aasm hands sandlock (stdio; the status descriptor as a residual
 * until observed closed), and the privileges the program will hold — present only when the guard drops
 * every capability for this launch and the least_authority probe saw that drop work on this host.
 */
record SandlockPlan(BackendCapabilities capabilities, Map<CapabilityDomain, DomainLowering> lowered,
                    DescriptorInventory descriptors, Optional<ProcessAuthority> authority) implements BackendPlan {
    static final ProcessAuthority LEAST = ProcessAuthority.planned("filter", "planned: aasm's guard empties every"
            + " capability set (bounding and ambient included), locks the securebits and sets no_new_privs before it"
            + " executes sandlock, so sandlock and every descendant hold none (observed by the least_authority probe)");

    SandlockPlan {
        lowered = Map.copyOf(lowered);
    }

    SandlockPlan(BackendCapabilities capabilities, Map<CapabilityDomain, DomainLowering> lowered,
                 DescriptorInventory descriptors) {
        this(capabilities, lowered, descriptors, Optional.empty());
    }

    @Override
    public Optional<ProcessAuthority> plannedAuthority() {
        return authority;
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
