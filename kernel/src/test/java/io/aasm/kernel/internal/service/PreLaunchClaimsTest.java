package io.aasm.kernel.internal.service;

import static io.aasm.kernel.internal.service.KernelFixture.bind;
import static io.aasm.kernel.internal.service.KernelFixture.kernel;
import static io.aasm.kernel.internal.service.KernelFixture.request;
import static io.aasm.kernel.internal.service.KernelFixture.sources;
import static io.aasm.kernel.internal.testing.Caps.with;
import static io.aasm.kernel.internal.testing.Policies.policy;
import static io.aasm.kernel.internal.testing.Policies.stmt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.capability.Synchrony;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportedPosture;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A sweep through the real decide() path: every weakened axis, under every posture and isolation
 * class, must give nine rows, no coverage-asserting claim before launch, and never READY without
 * least authority.
 */
class PreLaunchClaimsTest {

    private static final List<UnaryOperator<CapabilityReport>> WEAKENINGS = List.of(
            r -> r,
            r -> with(r, Mediation.OBSERVE),
            r -> with(r, Mediation.NONE),
            r -> with(r, DecisionTiming.POST),
            r -> with(r, Synchrony.BEST_EFFORT),
            r -> with(r, DescendantCoverage.UNMEASURED),
            r -> with(r, new PrerequisiteStatus.Unchecked("not probed")),
            r -> with(r, new SupportLevel.Unsupported("no")),
            r -> with(r, new SupportLevel.Partial(List.of("limited"))));

    @Test
    void noPreLaunchReportAssertsCoverage() {
        int reports = 0;
        for (UnaryOperator<CapabilityReport> weaken : WEAKENINGS) {
            for (RequirementPosture posture : RequirementPosture.values()) {
                for (IsolationClass isolation : IsolationClass.values()) {
                    KernelComponent k = kernel();
                    sources(k).with("p.test", policy(Optional.empty(),
                            stmt(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(List.of("/usr"))),
                            stmt(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain(), posture)));
                    BackendCapabilities caps = Caps.all(r -> r.domain() == CapabilityDomain.NETWORK_EGRESS
                            ? weaken.apply(r) : r);
                    bind(k, new TestBackend("tb", caps), 0);
                    IsolationReport r = reportOf(k.decide(request(isolation, "p.test")));
                    assertEquals(9, r.domains().size());
                    for (DomainProjection row : r.domains()) {
                        assertFalse(row.claim().assertsCoverage(), row.domain() + " " + row.claim());
                    }
                    assertNotEquals(ReportedPosture.READY, r.posture(), "no descriptor inventory: never READY");
                    reports++;
                }
            }
        }
        assertEquals(WEAKENINGS.size() * RequirementPosture.values().length * IsolationClass.values().length, reports);
    }

    private static IsolationReport reportOf(LaunchDecision d) {
        List<IsolationReport> out = new ArrayList<>();
        if (d instanceof LaunchDecision.Confined c) {
            out.add(c.report());
        } else if (d instanceof LaunchDecision.Unconfined u) {
            out.add(u.report());
        } else if (d instanceof LaunchDecision.Refused r) {
            out.add(r.report());
        }
        assertEquals(1, out.size(), "unexpected decision " + d);
        return out.get(0);
    }
}
