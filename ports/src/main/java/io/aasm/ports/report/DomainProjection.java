package io.aasm.ports.report;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceBasis;
import java.util.List;
import java.util.Objects;

/**
 * One row of the report: requested and achieved side by side, the claim (never coverage-asserting
 * before launch), the evidence basis, the backend's mechanism and limitations, and policy gaps.
 */
public record DomainProjection(
        CapabilityDomain domain,
        RequestedControl requested,
        ControlState state,
        ClaimTerm claim,
        EvidenceBasis evidence,
        String mechanism,
        List<String> limitations,
        List<String> policyGaps) {

    public DomainProjection {
        Objects.requireNonNull(domain);
        Objects.requireNonNull(requested);
        Objects.requireNonNull(state);
        Objects.requireNonNull(claim);
        Objects.requireNonNull(evidence);
        Objects.requireNonNull(mechanism);
        limitations = List.copyOf(limitations);
        policyGaps = List.copyOf(policyGaps);
    }
}
