package io.aasm.ports.policy;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.List;
import java.util.Objects;

/** The lowering verdict for one domain and what the schema still cannot say about it. */
public record DomainLowering(CapabilityDomain domain, DomainCoverage coverage, List<String> residualGaps) {
    public DomainLowering {
        Objects.requireNonNull(domain);
        Objects.requireNonNull(coverage);
        residualGaps = List.copyOf(residualGaps);
    }
}
