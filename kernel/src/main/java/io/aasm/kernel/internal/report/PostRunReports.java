package io.aasm.kernel.internal.report;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.report.RequestedControl;
import io.aasm.ports.report.ReportedPosture;
import io.aasm.ports.report.RunOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a pre-launch report into the post-run report. Claims come from runtime evidence only
 * (denied_before_execution only with a per-decision record), and evidence can only lower the
 * posture, never raise it.
 */
public final class PostRunReports {

    public IsolationReport postRun(IsolationReport pre, Optional<EnforcementEvidence> evidence,
                                   ExitDisposition exit) {
        return postRun(pre, evidence, exit, Optional.empty(), pre.descriptors(), pre.authority());
    }

    /** {@code evidenceFault} names why the backend could not show its evidence (it is then absent). */
    public IsolationReport postRun(IsolationReport pre, Optional<EnforcementEvidence> evidence,
                                   ExitDisposition exit, Optional<String> evidenceFault,
                                   Optional<DescriptorInventory> descriptors, Optional<ProcessAuthority> authority) {
        List<DomainProjection> rows = new ArrayList<>();
        boolean shortfall = false;
        for (DomainProjection row : pre.domains()) {
            CapabilityDomain d = row.domain();
            ClaimTerm claim = evidence.map(e -> claimFor(e, d, row.claim())).orElse(carried(row.claim()));
            if (claim == ClaimTerm.DENIED_BEFORE_EXECUTION && !(row.state() instanceof ControlState.Prevention)) {
                // a denial was decided, but the row does not stand in the prevention state: say evaluated
                claim = ClaimTerm.EVALUATED;
            }
            EvidenceBasis basis = evidence.map(e -> e.basisFor(d)).orElse(EvidenceBasis.NONE);
            if (row.requested() instanceof RequestedControl.Stated && evidence.isPresent()
                    && reportsShortfall(evidence.get(), d)) {
                shortfall = true;
            }
            rows.add(new DomainProjection(d, row.requested(), row.state(), claim, basis, row.mechanism(),
                    row.limitations(), row.policyGaps()));
        }
        ReportedPosture posture = pre.posture();
        Optional<String> detail = pre.postureDetail();
        if (posture == ReportedPosture.READY && descriptors.map(inv -> !inv.clean()).orElse(true)) {
            posture = ReportedPosture.DEGRADED;
            detail = Optional.of("the descriptor inventory taken at launch is not clean");
        }
        if (posture == ReportedPosture.READY && !authority.map(ProcessAuthority::clean).orElse(false)) {
            posture = ReportedPosture.DEGRADED;
            detail = Optional.of("the program's privileges at launch are not least: " + authority
                    .map(a -> String.join("; ", a.gaps())).orElse("not established"));
        }
        if (posture == ReportedPosture.READY && shortfall) {
            posture = ReportedPosture.DEGRADED;
            detail = Optional.of("the backend's evidence reports a degraded or unsupported control at run time");
        }
        if (evidenceFault.isPresent()) {
            detail = Optional.of(detail.map(d -> d + "; ").orElse("") + "no evidence: " + evidenceFault.get());
        }
        return Reports.postRun(pre, posture, detail, rows, outcome(exit), evidence, descriptors, authority);
    }

    /**
     * A post-run report with evidence that bears on no row: the run-level records of a launch without a boundary
     * (its transport mediation), shown as they are while every row keeps what it had.
     */
    public IsolationReport withRunEvidence(IsolationReport post, EnforcementEvidence evidence) {
        return Reports.postRun(post, post.posture(), post.postureDetail(), post.domains(),
                post.outcome().orElseThrow(), Optional.of(evidence), post.descriptors(), post.authority());
    }

    static ClaimTerm claimFor(EnforcementEvidence evidence, CapabilityDomain d, ClaimTerm pre) {
        ClaimTerm claim = evidence.claimFor(d);
        if (claim == ClaimTerm.DENIED_BEFORE_EXECUTION && !evidence.supportsPreventionClaim(d)) {
            claim = ClaimTerm.UNMEASURED;
        }
        return claim.assertsCoverage() ? claim : carried(pre);
    }

    /** Without runtime evidence, a shortfall stays named; anything else was simply not measured. */
    private static ClaimTerm carried(ClaimTerm pre) {
        return pre == ClaimTerm.UNSUPPORTED || pre == ClaimTerm.DEGRADED ? pre : ClaimTerm.UNMEASURED;
    }

    private static boolean reportsShortfall(EnforcementEvidence evidence, CapabilityDomain d) {
        for (EvidenceRecord r : evidence.records()) {
            if (r.domain().equals(Optional.of(d))
                    && (r.claim() == ClaimTerm.DEGRADED || r.claim() == ClaimTerm.UNSUPPORTED)) {
                return true;
            }
        }
        return false;
    }

    static RunOutcome outcome(ExitDisposition exit) {
        if (exit instanceof ExitDisposition.Exited e) {
            String detail = "exit status " + e.code();
            if (e.code() > 128) {
                // The JVM reports death by signal N as 128+N; say so rather than guess which it was.
                detail += " (also the status of a program killed by signal " + (e.code() - 128) + ")";
            }
            return new RunOutcome("exited", e.shellStatus(), detail);
        }
        if (exit instanceof ExitDisposition.Signalled s) {
            return new RunOutcome("signalled", s.shellStatus(), "killed by signal " + s.signal());
        }
        ExitDisposition.NotStarted n = (ExitDisposition.NotStarted) exit;
        return new RunOutcome("not_started", n.shellStatus(), n.kind().token() + ": " + n.detail());
    }
}
