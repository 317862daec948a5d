package io.aasm.kernel.internal.testing;

import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.FailurePosture;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.Prerequisite;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.capability.Synchrony;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Capability fixtures: a report able to prevent, and one-axis weakenings of it. */
public final class Caps {

    private Caps() {
    }

    public static CapabilityReport strong(CapabilityDomain d) {
        return new CapabilityReport(d, Mediation.ENFORCE, DecisionTiming.PRE, Synchrony.SYNC, FailurePosture.FAIL_CLOSED,
                DescendantCoverage.PROCESS_TREE, new SupportLevel.Full(),
                List.of(new Prerequisite("test probe", new PrerequisiteStatus.Satisfied("denial observed"))),
                "test-mechanism-" + d.token());
    }

    public static CapabilityReport with(CapabilityReport r, Mediation m) {
        return new CapabilityReport(r.domain(), m, r.timing(), r.synchrony(), r.failurePosture(), r.descendants(),
                r.support(), r.prerequisites(), r.mechanism());
    }

    public static CapabilityReport with(CapabilityReport r, DecisionTiming t) {
        return new CapabilityReport(r.domain(), r.mediation(), t, r.synchrony(), r.failurePosture(), r.descendants(),
                r.support(), r.prerequisites(), r.mechanism());
    }

    public static CapabilityReport with(CapabilityReport r, Synchrony s) {
        return new CapabilityReport(r.domain(), r.mediation(), r.timing(), s, r.failurePosture(), r.descendants(),
                r.support(), r.prerequisites(), r.mechanism());
    }

    public static CapabilityReport with(CapabilityReport r, DescendantCoverage c) {
        return new CapabilityReport(r.domain(), r.mediation(), r.timing(), r.synchrony(), r.failurePosture(), c,
                r.support(), r.prerequisites(), r.mechanism());
    }

    public static CapabilityReport with(CapabilityReport r, SupportLevel s) {
        return new CapabilityReport(r.domain(), r.mediation(), r.timing(), r.synchrony(), r.failurePosture(),
                r.descendants(), s, r.prerequisites(), r.mechanism());
    }

    public static CapabilityReport with(CapabilityReport r, PrerequisiteStatus status) {
        return new CapabilityReport(r.domain(), r.mediation(), r.timing(), r.synchrony(), r.failurePosture(),
                r.descendants(), r.support(), List.of(new Prerequisite("test probe", status)), r.mechanism());
    }

    /** Every domain strong, then {@code tweak} applied to each report. */
    public static BackendCapabilities all(UnaryOperator<CapabilityReport> tweak) {
        Map<CapabilityDomain, CapabilityReport> m = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            m.put(d, tweak.apply(strong(d)));
        }
        return of(m);
    }

    public static BackendCapabilities allStrong() {
        return all(r -> r);
    }

    public static BackendCapabilities of(Map<CapabilityDomain, CapabilityReport> reports) {
        return new BackendCapabilities(new Availability.Available(), PlatformBoundary.SHARED_HOST_KERNEL, reports,
                Optional.empty());
    }

    /** All strong except one domain replaced (or removed when {@code replacement} is null). */
    public static BackendCapabilities allStrongExcept(CapabilityDomain d, CapabilityReport replacement) {
        Map<CapabilityDomain, CapabilityReport> m = new EnumMap<>(allStrong().reports());
        if (replacement == null) {
            m.remove(d);
        } else {
            m.put(d, replacement);
        }
        return of(m);
    }
}
