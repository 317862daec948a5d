package io.aasm.backend.vm.internal.probe;

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

/**
 * What a listing shows before this host's guests were measured: the backend can run here, but nothing is
 * claimed for any domain (no mediation, no prevention, no measurement time) until the probe pairs have run.
 * Measuring boots about twenty guests, so a listing never does it; the first launch on the backend, or
 * {@code aasm probe --backend <id> --refresh}, does.
 */
public final class Unmeasured {
    private Unmeasured() {
    }

    public static String hint(String backendId) {
        return "not yet measured on this host: run `aasm probe --backend " + backendId + " --refresh` (boots about"
                + " twenty guests, once per QEMU and guest image), or launch on it once";
    }

    public static BackendCapabilities capabilities(String backendId, String why) {
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            reports.put(d, new CapabilityReport(d, Mediation.NONE, DecisionTiming.NONE, Synchrony.NONE,
                    FailurePosture.NOT_APPLICABLE, DescendantCoverage.UNMEASURED,
                    new SupportLevel.Partial(List.of("not yet measured on this host")),
                    List.of(new Prerequisite(VmCapabilities.PROBE_REQUIREMENT,
                            new PrerequisiteStatus.Unchecked(hint(backendId) + " (" + why + ")"))),
                    "not yet measured"));
        }
        return new BackendCapabilities(new Availability.Available(), PlatformBoundary.SEPARATE_KERNEL, reports,
                Optional.empty());
    }
}
