package io.aasm.ports.report;

import static io.aasm.ports.capability.CapabilityDomain.CREDENTIAL;
import static io.aasm.ports.capability.CapabilityDomain.NETWORK_EGRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.backend.AchievedControl;
import io.aasm.ports.backend.RefusalReason;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import io.aasm.ports.report.fixtures.ReportFixtures;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The shared phrases, one per variant; the renderers' golden files pin them in context. */
class ReportWordingTest {
    @Test
    void scopesReadByTypeWithSortedContentAndACount() {
        assertEquals("paths[2]: /a, /b; private[1]: /tmp",
                ReportWording.scope(new Scope.Paths(List.of("/b", "/a"), List.of("/tmp"))));
        assertEquals("syscalls deny[2]: bpf, ptrace",
                ReportWording.scope(new Scope.Syscalls(SyscallMode.DENY, List.of("ptrace", "bpf"))));
        assertEquals("delegated[0]: <none>", ReportWording.scope(new Scope.Delegated(List.of())));
        assertEquals("pinned_hosts[1]: a.example=10.0.0.1",
                ReportWording.scope(new Scope.PinnedHosts(new TreeMap<>(Map.of("a.example", "10.0.0.1")))));
        assertEquals("process_ceiling=64", ReportWording.scope(new Scope.ProcessCeiling(64)));
        assertEquals("limits: <no ceiling stated>", ReportWording.scope(new Scope.Limits(OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty())));
        assertEquals("whole_domain", ReportWording.scope(new Scope.WholeDomain()));
    }

    @Test
    void egressGrantsBracketIpv6AndSortByHost() {
        Scope.Egress e = new Scope.Egress(List.of(new EgressGrant(Protocol.TCP, "example.com", 8000, 8100),
                new EgressGrant(Protocol.TCP, "::1", 443, 443)));
        assertEquals("egress[2]: tcp [::1]:443, tcp example.com:8000-8100", ReportWording.scope(e));
    }

    @Test
    void statesSayPlannedAndAchievedSeparately() {
        assertEquals("timing=pre, descendants=process_tree", ReportWording.stateDetail(
                new ControlState.Prevention(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE)));
        ControlState degraded = new ControlState.Degraded(RequirementIntent.PREVENT_BEFORE_EFFECT,
                new AchievedControl.ObservedOnly(DecisionTiming.POST, DescendantCoverage.PROCESS_TREE),
                RefusalReason.DECISION_TOO_LATE, "audited after delivery");
        assertEquals("planned=prevent_before_effect, achieved=observed(timing=post, descendants=process_tree),"
                + " reason=decision_too_late", ReportWording.stateDetail(degraded));
        assertEquals("audited after delivery", ReportWording.stateExplanation(degraded));
        assertEquals("", ReportWording.stateExplanation(
                new ControlState.ObserveOnly(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE)));
        assertEquals("no_control_requested", ReportWording.stateDetail(
                new ControlState.Unmeasured(UnmeasuredReason.NO_CONTROL_REQUESTED, "x")));
    }

    @Test
    void requestedDetailNamesWhatWasAskedOrWhyNothingWas() {
        ControlRequirement egress = ControlRequirement.strict(NETWORK_EGRESS, new Scope.WholeDomain());
        assertEquals("intent=prevent_before_effect, posture=required, descendants=process_tree, scope=whole_domain",
                ReportWording.requestedDetail(new RequestedControl.Stated(egress)));
        assertEquals("node=ipc, schema_default=no control requested",
                ReportWording.requestedDetail(new RequestedControl.NotStated("ipc", "no control requested")));
        assertEquals("no policy was derived", ReportWording.requestedDetail(new RequestedControl.NotDerived()));
    }

    @Test
    void environCaveatAppliesExactlyWhenCredentialIsNotPrevented() {
        IsolationReport ready = ReportFixtures.byName("ready");
        assertTrue(ready.row(CREDENTIAL).state() instanceof ControlState.Prevention);
        assertFalse(ReportWording.environCaveatApplies(ready));
        assertTrue(ReportWording.environCaveatApplies(ReportFixtures.byName("ambient")));
    }
}
