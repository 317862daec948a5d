package io.aasm.kernel.internal.report;

import static io.aasm.kernel.internal.report.ReportBuilderTest.ctx;
import static io.aasm.kernel.internal.report.ReportBuilderTest.lowering;
import static io.aasm.kernel.internal.report.ReportBuilderTest.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aasm.kernel.internal.negotiation.Negotiator;
import io.aasm.kernel.internal.selection.InstalledBackend;
import io.aasm.kernel.internal.selection.Selection;
import io.aasm.kernel.internal.selection.Selector;
import io.aasm.kernel.internal.selection.WalkOrder;
import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Post-run: claims from runtime evidence only; evidence never raises a posture. */
class PostRunReportsTest {

    private static final CapabilityDomain W = CapabilityDomain.FILESYSTEM_WRITE;
    private static final CapabilityDomain E = CapabilityDomain.NETWORK_EGRESS;

    private final PostRunReports post = new PostRunReports();

    private static IsolationReport pre() {
        PolicyLowering l = lowering(RequirementPosture.REQUIRED);
        Selection.Chosen c = assertInstanceOf(Selection.Chosen.class, new Selector(new Negotiator()).select(
                IsolationClass.AUTO, Optional.empty(), spec(l),
                List.of(new InstalledBackend("tb", 0, new TestBackend("tb", Caps.allStrong()))), WalkOrder.parse("")));
        return new ReportBuilder().fromPlan(ctx(l), c.plan(), c.candidate().capabilities(), Optional.empty(),
                Optional.empty(), Optional.empty());
    }

    private static EnforcementEvidence evidence(EvidenceRecord... records) {
        return new EnforcementEvidence("tb", List.of(records));
    }

    private static EvidenceRecord rec(EvidenceKind kind, CapabilityDomain d, ClaimTerm claim) {
        return new EvidenceRecord(kind, Optional.of(d), claim, "test");
    }

    @Test
    void deniedBeforeExecutionOnlyWithADecisionRecord() {
        IsolationReport r = post.postRun(pre(), Optional.of(evidence(
                rec(EvidenceKind.DECISION, W, ClaimTerm.DENIED_BEFORE_EXECUTION),
                rec(EvidenceKind.EXERCISED, E, ClaimTerm.OBSERVED))), new ExitDisposition.Exited(0));
        assertEquals(ReportStage.POST_RUN, r.stage());
        assertEquals(ClaimTerm.DENIED_BEFORE_EXECUTION, r.row(W).claim());
        assertEquals(EvidenceBasis.DECISION, r.row(W).evidence());
        assertEquals(ClaimTerm.OBSERVED, r.row(E).claim());
        assertEquals(EvidenceBasis.RUNTIME_WITHOUT_DECISION, r.row(E).evidence());
        assertThrows(IllegalArgumentException.class,
                () -> rec(EvidenceKind.EXERCISED, W, ClaimTerm.DENIED_BEFORE_EXECUTION),
                "the port itself rejects a prevention claim without a decision record");
    }

    @Test
    void setupEvidenceAloneClaimsNothing() {
        IsolationReport r = post.postRun(pre(), Optional.of(evidence(rec(EvidenceKind.CONFIGURED, W, ClaimTerm.PLANNED),
                rec(EvidenceKind.INSTALLED, W, ClaimTerm.PLANNED))), new ExitDisposition.Exited(0));
        assertEquals(ClaimTerm.UNMEASURED, r.row(W).claim());
        assertEquals(EvidenceBasis.SETUP_ONLY, r.row(W).evidence());
        assertEquals(EvidenceBasis.NONE, r.row(CapabilityDomain.IPC).evidence());
    }

    @Test
    void evidenceCanLowerButNeverRaiseThePosture() {
        IsolationReport ready = Reports.withAuthority(
                Reports.withPosture(pre(), ReportedPosture.READY, Optional.empty()), Optional.of(CLEAN),
                Optional.of(LEAST));
        IsolationReport lowered = post.postRun(ready, Optional.of(evidence(rec(EvidenceKind.EXERCISED, W,
                ClaimTerm.DEGRADED))), new ExitDisposition.Exited(0));
        assertEquals(ReportedPosture.DEGRADED, lowered.posture());
        IsolationReport strong = post.postRun(pre(), Optional.of(evidence(
                rec(EvidenceKind.DECISION, W, ClaimTerm.DENIED_BEFORE_EXECUTION))), new ExitDisposition.Exited(0));
        assertEquals(ReportedPosture.DEGRADED, strong.posture(), "evidence does not raise DEGRADED to READY");
        IsolationReport kept = post.postRun(ready, Optional.empty(), new ExitDisposition.Exited(0));
        assertEquals(ReportedPosture.READY, kept.posture());
    }

    @Test
    void aPlanIsReadyOnlyWithACleanPlannedSealingAndStaysSoOnlyWithACleanInventory() {
        PolicyLowering l = lowering(RequirementPosture.REQUIRED);
        Selection.Chosen c = assertInstanceOf(Selection.Chosen.class, new Selector(new Negotiator()).select(
                IsolationClass.AUTO, Optional.empty(), spec(l),
                List.of(new InstalledBackend("tb", 0, new TestBackend("tb", Caps.allStrong()))), WalkOrder.parse("")));
        IsolationReport sealed = new ReportBuilder().fromPlan(ctx(l), c.plan(), c.candidate().capabilities(),
                Optional.empty(), Optional.of(CLEAN), Optional.of(LEAST));
        assertEquals(ReportedPosture.READY, sealed.posture());
        IsolationReport unsealed = new ReportBuilder().fromPlan(ctx(l), c.plan(), c.candidate().capabilities(),
                Optional.empty(), Optional.empty(), Optional.of(LEAST));
        assertEquals(ReportedPosture.DEGRADED, unsealed.posture());
        DescriptorInventory leaky = new DescriptorInventory(true, List.of(0, 1, 2), List.of(), List.of("fd 7: socket"));
        IsolationReport after = post.postRun(sealed, Optional.empty(), new ExitDisposition.Exited(0),
                Optional.empty(), Optional.of(leaky), Optional.of(LEAST));
        assertEquals(ReportedPosture.DEGRADED, after.posture(), "a residual descriptor at launch lowers READY");
        assertEquals(Optional.of(leaky), after.descriptors());
    }

    @Test
    void aPlanIsReadyOnlyWithPlannedLeastPrivilegesAndStaysSoOnlyIfTheProgramHeldNone() {
        PolicyLowering l = lowering(RequirementPosture.REQUIRED);
        Selection.Chosen c = assertInstanceOf(Selection.Chosen.class, new Selector(new Negotiator()).select(
                IsolationClass.AUTO, Optional.empty(), spec(l),
                List.of(new InstalledBackend("tb", 0, new TestBackend("tb", Caps.allStrong()))), WalkOrder.parse("")));
        IsolationReport planned = new ReportBuilder().fromPlan(ctx(l), c.plan(), c.candidate().capabilities(),
                Optional.empty(), Optional.of(CLEAN), Optional.of(LEAST));
        assertEquals(ReportedPosture.READY, planned.posture());
        IsolationReport unplanned = new ReportBuilder().fromPlan(ctx(l), c.plan(), c.candidate().capabilities(),
                Optional.empty(), Optional.of(CLEAN), Optional.empty());
        assertEquals(ReportedPosture.DEGRADED, unplanned.posture(), "no privilege guarantee, no least authority");
        ProcessAuthority root = new ProcessAuthority(true, "0000000000000000", "000001ffffffffff", "000001ffffffffff",
                "000001ffffffffff", "0000000000000000", true, "filter (2 filters)", "measured");
        IsolationReport after = post.postRun(planned, Optional.empty(), new ExitDisposition.Exited(0),
                Optional.empty(), Optional.of(CLEAN), Optional.of(root));
        assertEquals(ReportedPosture.DEGRADED, after.posture(), "capabilities measured after execve lower READY");
        assertEquals(false, after.leastAuthority());
        assertEquals(true, after.leastAuthorityGaps().stream().anyMatch(g -> g.contains("effective")));
        ProcessAuthority measured = new ProcessAuthority(true, "0000000000000000", "0000000000000000",
                "0000000000000000", "0000000000000000", "0000000000000000", true, "filter (2 filters)", "measured");
        IsolationReport kept = post.postRun(planned, Optional.empty(), new ExitDisposition.Exited(0),
                Optional.empty(), Optional.of(CLEAN), Optional.of(measured));
        assertEquals(ReportedPosture.READY, kept.posture());
        assertEquals(Optional.of(measured), kept.authority());
        ProcessAuthority noNnp = new ProcessAuthority(true, "0000000000000000", "0000000000000000",
                "0000000000000000", "0000000000000000", "0000000000000000", false, "filter (2 filters)", "measured");
        assertEquals(ReportedPosture.DEGRADED, post.postRun(planned, Optional.empty(), new ExitDisposition.Exited(0),
                Optional.empty(), Optional.of(CLEAN), Optional.of(noNnp)).posture(), "no_new_privs is part of it");
    }

    private static final DescriptorInventory CLEAN =
            new DescriptorInventory(true, List.of(0, 1, 2), List.of(), List.of());
    private static final ProcessAuthority LEAST = ProcessAuthority.planned("filter", "test backend");

    @Test
    void anEvidenceFaultIsNamedInThePostRunReport() {
        IsolationReport r = post.postRun(pre(), Optional.empty(), new ExitDisposition.Exited(0),
                Optional.of("evidence() threw IllegalStateException: gone"), Optional.empty(), Optional.empty());
        assertEquals(true, r.postureDetail().orElseThrow().contains("no evidence: evidence() threw"));
        assertEquals(ClaimTerm.UNMEASURED, r.row(W).claim());
    }

    @Test
    void outcomeIsRecordedWithItsShellStatus() {
        assertEquals("exit status 143 (also the status of a program killed by signal 15)", post.postRun(pre(),
                Optional.empty(), new ExitDisposition.Exited(143)).outcome().orElseThrow().detail());
        assertEquals(143, post.postRun(pre(), Optional.empty(), new ExitDisposition.Signalled(15)).outcome()
                .orElseThrow().shellStatus());
        assertEquals("not_started", post.postRun(pre(), Optional.empty(),
                new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR, "x")).outcome().orElseThrow()
                .disposition());
    }
}
