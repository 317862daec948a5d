package io.aasm.ports.evidence;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.List;
import java.util.Objects;

/** Everything a backend can show about one launch. */
public record EnforcementEvidence(String backendId, List<EvidenceRecord> records) {
    public EnforcementEvidence {
        Objects.requireNonNull(backendId, "backendId");
        records = List.copyOf(records);
    }

    /** True only with a per-decision record for the domain carrying the prevention term. */
    public boolean supportsPreventionClaim(CapabilityDomain domain) {
        return records.stream().anyMatch(r -> r.kind() == EvidenceKind.DECISION
                && r.domain().equals(java.util.Optional.of(domain))
                && r.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION);
    }

    /** The strongest coverage-asserting term among runtime records for the domain, else unmeasured. */
    public ClaimTerm claimFor(CapabilityDomain domain) {
        for (ClaimTerm term : ClaimTerm.COVERAGE_RANK) {
            boolean present = records.stream().anyMatch(r -> r.kind().isRuntime()
                    && r.domain().equals(java.util.Optional.of(domain)) && r.claim() == term);
            if (present) {
                return term;
            }
        }
        return ClaimTerm.UNMEASURED;
    }

    /** The evidence ladder step the domain reached. */
    public EvidenceBasis basisFor(CapabilityDomain domain) {
        List<EvidenceRecord> mine = records.stream()
                .filter(r -> r.domain().isEmpty() || r.domain().get() == domain).toList();
        if (mine.stream().anyMatch(r -> r.kind() == EvidenceKind.DECISION && r.domain().isPresent())) {
            return EvidenceBasis.DECISION;
        }
        if (mine.stream().anyMatch(r -> r.kind().isRuntime())) {
            return EvidenceBasis.RUNTIME_WITHOUT_DECISION;
        }
        return mine.isEmpty() ? EvidenceBasis.NONE : EvidenceBasis.SETUP_ONLY;
    }
}
