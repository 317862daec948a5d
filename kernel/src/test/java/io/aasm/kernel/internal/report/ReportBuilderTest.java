package io.aasm.kernel.internal.report;

import static io.aasm.kernel.internal.testing.Caps.strong;
import static io.aasm.kernel.internal.testing.Caps.with;
import static io.aasm.kernel.internal.testing.Policies.policy;
import static io.aasm.kernel.internal.testing.Policies.stmt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.kernel.internal.lowering.PolicyLowerer;
import io.aasm.kernel.internal.negotiation.Negotiator;
import io.aasm.kernel.internal.selection.InstalledBackend;
import io.aasm.kernel.internal.selection.Selection;
import io.aasm.kernel.internal.selection.Selector;
import io.aasm.kernel.internal.selection.WalkOrder;
import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.backend.AchievedControl;
import io.aasm.ports.backend.RefusalReason;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Policy;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.RefusalEntry;
import io.aasm.ports.report.ReportedPosture;
import io.aasm.ports.report.RequestedControl;
import io.aasm.ports.report.TargetSummary;
import io.aasm.ports.report.UnmeasuredReason;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Pre-launch reports: requested vs achieved per domain, honest claims, posture rules. */
class ReportBuilderTest {

    private static final CapabilityDomain W = CapabilityDomain.FILESYSTEM_WRITE;
    private static final CapabilityDomain E = CapabilityDomain.NETWORK_EGRESS;

    private final ReportBuilder builder = new ReportBuilder();
    private final Selector selector = new Selector(new Negotiator());

    static PolicyLowering lowering(RequirementPosture egressPosture) {
        Policy p = policy(Optional.empty(), stmt(W, new Scope.Paths(List.of("/work"))),
                stmt(E, new Scope.WholeDomain(), egressPosture));
        return new PolicyLowerer().lower(p);
    }

    static ReportContext ctx(PolicyLowering l) {
        return new ReportContext(IsolationClass.AUTO, IdentityRef.anonymous(), new TargetSummary("/bin/true", 0),
                l.origin(), Optional.of(l), CredentialPosture.none());
    }

    static ExecutionSpec spec(PolicyLowering l) {
        return new ExecutionSpec("/bin/true", List.of(), "/", IdentityRef.anonymous(), l.requirements(), Map.of(),
                CredentialPosture.none(), new Stdio.Inherit());
    }

    private Selection select(PolicyLowering l, String pinned, BackendCapabilities caps) {
        TestBackend b = new TestBackend("tb", caps);
        return selector.select(IsolationClass.AUTO, Optional.ofNullable(pinned), spec(l),
                List.of(new InstalledBackend("tb", 0, b)), WalkOrder.parse("tb"));
    }

    private IsolationReport planReport(PolicyLowering l, BackendCapabilities caps) {
        Selection.Chosen c = assertInstanceOf(Selection.Chosen.class, select(l, null, caps));
        return builder.fromPlan(ctx(l), c.plan(), c.candidate().capabilities(), Optional.of(c.record()),
                Optional.empty(), Optional.empty());
    }

    private static void assertNoCoverageClaims(IsolationReport r) {
        for (DomainProjection row : r.domains()) {
            assertFalse(row.claim().assertsCoverage(), row.domain() + " claims " + row.claim() + " pre-launch");
        }
    }

    @Test
    void noBoundaryReportHasNineUnmeasuredRowsAndIsNeverReady() {
        PolicyLowering l = lowering(RequirementPosture.REQUIRED);
        IsolationReport r = builder.noBoundary(ctx(l));
        assertEquals(ReportedPosture.NO_BOUNDARY, r.posture());
        assertEquals("NO BOUNDARY ESTABLISHED", r.posture().label());
        for (DomainProjection row : r.domains()) {
            assertEquals(UnmeasuredReason.NO_BACKEND_SELECTED,
                    assertInstanceOf(ControlState.Unmeasured.class, row.state()).reason());
            assertEquals(ClaimTerm.UNMEASURED, row.claim());
            assertEquals("none", row.mechanism());
        }
        assertInstanceOf(RequestedControl.Stated.class, r.row(W).requested());
        RequestedControl.NotStated ns = assertInstanceOf(RequestedControl.NotStated.class,
                r.row(CapabilityDomain.FILESYSTEM_READ).requested());
        assertEquals("filesystem.read.allow", ns.node());
        assertFalse(r.row(W).policyGaps().isEmpty());
        assertEquals(2, r.requested().size());
    }

    @Test
    void planRowsArePlannedNotCoverageAndMechanismAndLimitationsAreCopied() {
        PolicyLowering l = lowering(RequirementPosture.REQUIRED);
        BackendCapabilities caps = Caps.all(r -> r.domain() == W
                ? with(r, new SupportLevel.Partial(List.of("hard links escape the grant"))) : r);
        IsolationReport r = planReport(l, caps);
        assertEquals(new ControlState.Prevention(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE), r.row(W).state());
        assertEquals(ClaimTerm.PLANNED, r.row(W).claim());
        assertEquals("test-mechanism-filesystem_write", r.row(W).mechanism());
        assertEquals(List.of("hard links escape the grant"), r.row(W).limitations());
        ControlState.Unmeasured read = assertInstanceOf(ControlState.Unmeasured.class,
                r.row(CapabilityDomain.FILESYSTEM_READ).state());
        assertEquals(UnmeasuredReason.NO_CONTROL_REQUESTED, read.reason());
        assertEquals("tb", r.backend().orElseThrow().id());
        assertTrue(r.selection().isPresent());
        assertNoCoverageClaims(r);
    }

    @Test
    void readyWithoutLeastAuthorityIsDegraded() {
        IsolationReport r = planReport(lowering(RequirementPosture.REQUIRED), Caps.allStrong());
        assertEquals(ReportedPosture.DEGRADED, r.posture());
        assertTrue(r.postureDetail().orElseThrow().contains("no descriptor inventory taken"));
    }

    @Test
    void degradedRowKeepsPlannedAndAchievedAndOtherRowsStayPrevention() {
        PolicyLowering l = lowering(RequirementPosture.DEGRADE);
        BackendCapabilities caps = Caps.all(r -> r.domain() == E ? with(r, Mediation.OBSERVE) : r);
        IsolationReport r = planReport(l, caps);
        ControlState.Degraded d = assertInstanceOf(ControlState.Degraded.class, r.row(E).state());
        assertEquals(new AchievedControl.ObservedOnly(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE),
                d.achieved());
        assertEquals(ClaimTerm.DEGRADED, r.row(E).claim());
        assertInstanceOf(ControlState.Prevention.class, r.row(W).state());
        assertEquals(ReportedPosture.DEGRADED, r.posture());
        assertTrue(r.refusals().isEmpty());
    }

    @Test
    void optionalUnmetIsUnsupportedNotARefusal() {
        IsolationReport r = planReport(lowering(RequirementPosture.OPTIONAL),
                Caps.allStrongExcept(E, null));
        ControlState.Unsupported u = assertInstanceOf(ControlState.Unsupported.class, r.row(E).state());
        assertEquals(RefusalReason.NO_CAPABILITY_REPORTED, u.reason());
        assertEquals(ClaimTerm.UNSUPPORTED, r.row(E).claim());
        assertEquals(ReportedPosture.DEGRADED, r.posture());
        assertTrue(r.refusals().isEmpty());
    }

    @Test
    void pinnedRefusalListsEveryUnmetRequirementAndClaimsNothing() {
        PolicyLowering l = lowering(RequirementPosture.REQUIRED);
        BackendCapabilities caps = Caps.all(r -> with(r, Mediation.OBSERVE));
        Selection.NotChosen n = assertInstanceOf(Selection.NotChosen.class, select(l, "tb", caps));
        IsolationReport r = builder.fromSelection(ctx(l), n);
        assertEquals(ReportedPosture.REFUSED, r.posture());
        List<RefusalEntry> entries = r.refusals();
        assertEquals(List.of(Optional.of(W), Optional.of(E)), entries.stream().map(RefusalEntry::domain).toList());
        assertTrue(entries.stream().allMatch(e -> e.reason().equals("observe_only_for_prevention_requirement")));
        assertEquals(ClaimTerm.UNSUPPORTED, r.row(W).claim());
        assertNoCoverageClaims(r);
    }

    @Test
    void refusalKeepsTheMetRequirementsStateButClaimsNothingForIt() {
        PolicyLowering l = lowering(RequirementPosture.REQUIRED);
        BackendCapabilities caps = Caps.all(r -> r.domain() == E ? with(r, DecisionTiming.POST) : r);
        IsolationReport r = builder.fromSelection(ctx(l),
                assertInstanceOf(Selection.NotChosen.class, select(l, "tb", caps)));
        assertInstanceOf(ControlState.Prevention.class, r.row(W).state());
        assertEquals(ClaimTerm.UNMEASURED, r.row(W).claim());
        assertEquals(1, r.refusals().size());
        assertEquals("decision_too_late", r.refusals().get(0).reason());
    }

    @Test
    void unavailablePinnedBackendMarksStatedDomainsUnsupported() {
        PolicyLowering l = lowering(RequirementPosture.REQUIRED);
        IsolationReport r = builder.fromSelection(ctx(l), assertInstanceOf(Selection.NotChosen.class,
                select(l, "tb", BackendCapabilities.unavailable("no support here", PlatformBoundary.SHARED_HOST_KERNEL))));
        assertEquals(Optional.of("no support here"), r.backendUnavailable());
        assertEquals(RefusalReason.BACKEND_UNAVAILABLE,
                assertInstanceOf(ControlState.Unsupported.class, r.row(W).state()).reason());
        assertInstanceOf(ControlState.Unmeasured.class, r.row(CapabilityDomain.IPC).state());
        assertEquals(List.of("backend_unavailable", "backend_unavailable", "backend_unavailable"),
                r.refusals().stream().map(RefusalEntry::reason).toList());
        assertEquals(List.of(Optional.empty(), Optional.of(W), Optional.of(E)),
                r.refusals().stream().map(RefusalEntry::domain).toList());
    }

    @Test
    void walkRefusalHasNoBackendRowsAndNamesEveryCandidate() {
        PolicyLowering l = lowering(RequirementPosture.REQUIRED);
        TestBackend b = new TestBackend("tb", Caps.all(r -> with(r, Mediation.OBSERVE)));
        Selection s = selector.select(IsolationClass.AUTO, Optional.empty(), spec(l),
                List.of(new InstalledBackend("tb", 0, b)), WalkOrder.parse("ghost"));
        IsolationReport r = builder.fromSelection(ctx(l), assertInstanceOf(Selection.NotChosen.class, s));
        for (DomainProjection row : r.domains()) {
            assertEquals(UnmeasuredReason.NO_BACKEND_SELECTED,
                    assertInstanceOf(ControlState.Unmeasured.class, row.state()).reason());
        }
        assertTrue(r.refusals().stream().anyMatch(e -> e.detail().startsWith("ghost: not installed")));
        assertTrue(r.refusals().stream().anyMatch(e -> e.detail().startsWith("tb: requirements unmet")));
        assertEquals(2, r.selection().orElseThrow().considered().size());
    }

    @Test
    void emptyRequirementSetIsNeverReady() {
        PolicyLowering empty = new PolicyLowerer().lower(Policy.empty("<none>"));
        TestBackend b = new TestBackend("tb", Caps.allStrong());
        Selection.Chosen c = assertInstanceOf(Selection.Chosen.class, selector.select(IsolationClass.AUTO,
                Optional.empty(), spec(empty), List.of(new InstalledBackend("tb", 0, b)), WalkOrder.parse("")));
        IsolationReport r = builder.fromPlan(ctx(empty), c.plan(), c.candidate().capabilities(),
                Optional.empty(), Optional.empty(), Optional.empty());
        assertNotEquals(ReportedPosture.READY, r.posture());
        assertEquals(ReportedPosture.NO_BOUNDARY, r.posture());
    }

    @Test
    void notDerivedWhenNoLoweringExists() {
        ReportContext none = new ReportContext(IsolationClass.NONE, IdentityRef.anonymous(),
                new TargetSummary("/bin/true", 0), "<none>", Optional.empty(), CredentialPosture.none());
        IsolationReport r = builder.noBoundary(none);
        assertTrue(r.domains().stream().allMatch(d -> d.requested() instanceof RequestedControl.NotDerived));
        assertTrue(r.row(W).policyGaps().isEmpty());
        assertTrue(strong(W).canPrevent());
    }
}
