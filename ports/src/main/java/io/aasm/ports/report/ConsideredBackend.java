package io.aasm.ports.report;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.List;
import java.util.Objects;

/** One candidate a selection looked at, and why it was taken or passed over. */
public record ConsideredBackend(String id, CandidateVerdict verdict, String detail, List<CapabilityDomain> unmetDomains) {
    public ConsideredBackend {
        Objects.requireNonNull(id);
        Objects.requireNonNull(verdict);
        Objects.requireNonNull(detail);
        unmetDomains = List.copyOf(unmetDomains);
    }
}
