package io.aasm.ports.policy;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A policy lowered to requirements: one verdict per domain (always nine), plus unmapped statements. */
public record PolicyLowering(
        String origin,
        Optional<IsolationClass> isolation,
        List<ControlRequirement> requirements,
        List<DomainLowering> domains,
        List<String> unmapped) {

    public PolicyLowering {
        Objects.requireNonNull(origin);
        Objects.requireNonNull(isolation);
        requirements = List.copyOf(requirements);
        domains = List.copyOf(domains);
        unmapped = List.copyOf(unmapped);
        if (domains.size() != io.aasm.ports.capability.CapabilityDomain.values().length) {
            throw new IllegalArgumentException("a lowering covers every domain, got " + domains.size());
        }
    }
}
