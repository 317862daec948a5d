package io.aasm.backend.landlockseccomp.internal.probe;

import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.backend.landlockseccomp.internal.lower.Need;
import io.aasm.backend.landlockseccomp.internal.lower.PathReads;
import io.aasm.backend.landlockseccomp.internal.lower.Route;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Builds capability reports from the host facts, the chosen route per domain and the probe results.
 * A domain can prevent only when every host fact holds AND its probe pair observed the denial.
 */
public final class CapabilityAssembler {
    public static final String PROBE_REQUIREMENT =
            "denial observed by a controlled probe pair on this host (same action by a grandchild with and without the grant)";

    private CapabilityAssembler() {
    }

    public static BackendCapabilities assemble(HostFacts facts, Function<CapabilityDomain, Route> routes,
                                               Map<CapabilityDomain, ProbeResult> probes, Optional<Instant> measuredAt) {
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            reports.put(d, report(d, facts, routes.apply(d), Optional.ofNullable(probes.get(d))));
        }
        return new BackendCapabilities(new io.aasm.ports.capability.Availability.Available(),
                PlatformBoundary.SHARED_HOST_KERNEL, reports, measuredAt);
    }

    public static CapabilityReport report(CapabilityDomain d, HostFacts facts, Route route, Optional<ProbeResult> probe) {
        return report(d, facts, route, probe, PathReads.DIRECT);
    }

    /** The same, the prerequisites' filesystem questions (a cgroup folder's mode and owner) asked through {@code reads}. */
    public static CapabilityReport report(CapabilityDomain d, HostFacts facts, Route route, Optional<ProbeResult> probe,
                                          PathReads reads) {
        if (route instanceof Route.Unsupported u) {
            return CapabilityReport.unsupported(d, u.reason());
        }
        Route.Supported s = (Route.Supported) route;
        List<Prerequisite> pre = new ArrayList<>();
        for (Need n : s.needs()) {
            pre.add(new Prerequisite(n.requirement(), n.check(facts, reads)));
        }
        pre.add(new Prerequisite(PROBE_REQUIREMENT, probe.map(CapabilityAssembler::status)
                .orElse(new PrerequisiteStatus.Unchecked("not probed yet on this host; run 'aasm probe --refresh'"))));
        return new CapabilityReport(d, Mediation.ENFORCE, DecisionTiming.PRE, Synchrony.SYNC, FailurePosture.FAIL_CLOSED,
                DescendantCoverage.PROCESS_TREE, new SupportLevel.Partial(s.limitations()), pre, s.mechanism());
    }

    private static PrerequisiteStatus status(ProbeResult r) {
        return r.verdict() == ProbeResult.Verdict.DENIAL_OBSERVED ? new PrerequisiteStatus.Satisfied(r.detail())
                : new PrerequisiteStatus.Unchecked("inconclusive: " + r.detail());
    }
}
