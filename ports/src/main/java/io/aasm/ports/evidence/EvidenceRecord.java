package io.aasm.ports.evidence;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.Objects;
import java.util.Optional;

/** One fact a backend can show about a launch; {@code domain} is empty for run-level facts. */
public record EvidenceRecord(EvidenceKind kind, Optional<CapabilityDomain> domain, ClaimTerm claim, String detail) {
    public EvidenceRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(detail, "detail");
        if (claim == ClaimTerm.DENIED_BEFORE_EXECUTION && kind != EvidenceKind.DECISION) {
            throw new IllegalArgumentException("denied_before_execution needs a per-decision record, not " + kind.token());
        }
    }
}
