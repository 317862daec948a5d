package io.aasm.ports.capability;

import java.util.List;
import java.util.Objects;

/**
 * What a backend can do for one domain on this host, on independent axes. {@code mechanism} is an
 * opaque, backend-authored description (rendered, never parsed by the kernel).
 */
public record CapabilityReport(
        CapabilityDomain domain,
        Mediation mediation,
        DecisionTiming timing,
        Synchrony synchrony,
        FailurePosture failurePosture,
        DescendantCoverage descendants,
        SupportLevel support,
        List<Prerequisite> prerequisites,
        String mechanism) {

    public CapabilityReport {
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(mediation, "mediation");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(synchrony, "synchrony");
        Objects.requireNonNull(failurePosture, "failurePosture");
        Objects.requireNonNull(descendants, "descendants");
        Objects.requireNonNull(support, "support");
        prerequisites = List.copyOf(prerequisites);
        Objects.requireNonNull(mechanism, "mechanism");
    }

    /** A domain the backend does not cover at all; every axis is forced to its weakest value. */
    public static CapabilityReport unsupported(CapabilityDomain domain, String reason) {
        return new CapabilityReport(domain, Mediation.NONE, DecisionTiming.NONE, Synchrony.NONE,
                FailurePosture.NOT_APPLICABLE, DescendantCoverage.UNMEASURED,
                new SupportLevel.Unsupported(reason), List.of(), "none");
    }

    /**
     * True only when every axis allows prevention and every prerequisite was satisfied by an
     * observation on this host. Partial support does not disqualify; its limitations are reported.
     */
    public boolean canPrevent() {
        return mediation == Mediation.ENFORCE
                && timing == DecisionTiming.PRE
                && synchrony == Synchrony.SYNC
                && !(support instanceof SupportLevel.Unsupported)
                && prerequisites.stream().allMatch(Prerequisite::satisfied);
    }
}
