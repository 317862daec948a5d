package io.aasm.backend.container.internal.probe;

import io.aasm.backend.container.internal.lower.Need;
import io.aasm.backend.container.internal.lower.Route;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.FailurePosture;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.Prerequisite;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.capability.Synchrony;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Builds one domain's report from its route, the engine facts its mechanism needs, and the domain's probe
 * verdict. A domain can prevent only when every need holds AND its probe pair observed the denial in a
 * container on this host. The engine applies every setting before the program starts or refuses to start,
 * so a supported domain fails closed and covers the whole tree (every process of the container).
 */
public final class CapabilityAssembler {
    public static final String PROBE_REQUIREMENT = "denial observed by a controlled probe pair in a container on this "
            + "host (same action by a grandchild with and without the grant)";

    private CapabilityAssembler() {
    }

    public static CapabilityReport report(CapabilityDomain d, Route route, Function<Need, PrerequisiteStatus> needs,
                                          Optional<ProbeResult> probe) {
        if (route instanceof Route.Unsupported u) {
            return CapabilityReport.unsupported(d, u.reason());
        }
        Route.Supported s = (Route.Supported) route;
        List<Prerequisite> pre = new ArrayList<>();
        for (Need n : s.needs()) {
            pre.add(new Prerequisite(n.requirement(), needs.apply(n)));
        }
        pre.add(new Prerequisite(PROBE_REQUIREMENT, probe.map(CapabilityAssembler::status)
                .orElse(new PrerequisiteStatus.Unchecked("not probed yet on this host; run 'aasm probe --refresh'"))));
        return new CapabilityReport(d, Mediation.ENFORCE, DecisionTiming.PRE, Synchrony.SYNC, FailurePosture.FAIL_CLOSED,
                DescendantCoverage.PROCESS_TREE, new SupportLevel.Partial(s.limitations()), pre, s.mechanism());
    }

    private static PrerequisiteStatus status(ProbeResult r) {
        return r.observed() ? new PrerequisiteStatus.Satisfied(r.detail())
                : new PrerequisiteStatus.Unchecked("inconclusive: " + r.detail());
    }
}
