package io.aasm.backend.vm.internal.probe;

import io.aasm.backend.vm.internal.lower.Route;
import io.aasm.backend.vm.internal.lower.VmRoutes;
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
import io.aasm.ports.policy.ControlRequirement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Capability reports from a route and the domain's probe verdict: a domain prevents only when every guest
 * fact its route needs holds and its probe pair observed the denial in a guest on this host.
 */
public class VmCapabilities {
    public static final String PROBE_REQUIREMENT = "denial observed by a controlled probe pair in a guest on this host";

    private final VmRoutes routes;
    private final boolean cgroup;
    private final Map<CapabilityDomain, ProbeResult> probes;
    private final Optional<Instant> measuredAt;

    public VmCapabilities(VmRoutes routes, boolean cgroup, Map<CapabilityDomain, ProbeResult> probes,
                          Optional<Instant> measuredAt) {
        this.routes = routes;
        this.cgroup = cgroup;
        this.probes = Map.copyOf(probes);
        this.measuredAt = measuredAt;
    }

    public BackendCapabilities general() {
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            reports.put(d, report(d, routes.general(d)));
        }
        return new BackendCapabilities(new Availability.Available(), PlatformBoundary.SEPARATE_KERNEL, reports,
                measuredAt);
    }

    /** The general reports, with each stated domain's replaced by the report for its own scope. */
    public BackendCapabilities narrowed(List<ControlRequirement> stated) {
        return narrowed(stated, io.aasm.ports.transport.TransportMediation.notRequested());
    }

    /** As {@link #narrowed(List)}, an egress grant's route decided by the launch's transport mediation. */
    public BackendCapabilities narrowed(List<ControlRequirement> stated,
                                        io.aasm.ports.transport.TransportMediation transport) {
        BackendCapabilities g = general();
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(g.reports());
        for (ControlRequirement r : stated) {
            reports.put(r.domain(), report(r.domain(), routes.route(r, transport)));
        }
        return new BackendCapabilities(g.availability(), g.platformBoundary(), reports, g.measuredAt());
    }

    /** Replaces one domain's report by "unsupported" (a scope the lowering found it cannot install). */
    public static BackendCapabilities unsupported(BackendCapabilities caps, CapabilityDomain d, String reason) {
        Map<CapabilityDomain, CapabilityReport> reports = new EnumMap<>(caps.reports());
        reports.put(d, CapabilityReport.unsupported(d, reason));
        return new BackendCapabilities(caps.availability(), caps.platformBoundary(), reports, caps.measuredAt());
    }

    private CapabilityReport report(CapabilityDomain d, Route route) {
        if (route instanceof Route.Unsupported u) {
            return CapabilityReport.unsupported(d, u.reason());
        }
        Route.Supported s = (Route.Supported) route;
        List<Prerequisite> pre = new ArrayList<>();
        for (String need : s.needs()) {
            pre.add(new Prerequisite(need, need.equals(VmRoutes.NEED_CGROUP) && cgroup
                    ? new PrerequisiteStatus.Satisfied("the guest agent created the tree's cgroup at boot")
                    : new PrerequisiteStatus.Unsatisfied("the guest came up without " + need)));
        }
        ProbeResult p = probes.get(d);
        pre.add(new Prerequisite(PROBE_REQUIREMENT, p == null
                ? new PrerequisiteStatus.Unchecked("not probed yet on this host; run 'aasm probe --refresh'")
                : p.verdict() == ProbeResult.Verdict.DENIAL_OBSERVED ? new PrerequisiteStatus.Satisfied(p.detail())
                : new PrerequisiteStatus.Unchecked("inconclusive: " + p.detail())));
        return new CapabilityReport(d, Mediation.ENFORCE, DecisionTiming.PRE, Synchrony.SYNC, FailurePosture.FAIL_CLOSED,
                DescendantCoverage.PROCESS_TREE, new SupportLevel.Partial(s.limitations()), pre, s.mechanism());
    }
}
