package io.aasm.conformance.internal.run;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import io.aasm.ports.report.RequestedControl;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a launch's reports the way a user would, and lists every way they contradict the launch:
 * the wrong backend, a boundary claimed under {@code none}, a stated domain shown as not stated,
 * coverage asserted before launch, or a prevention claim without the prevention state.
 */
public final class Truth {
    private Truth() {
    }

    /** Prevention is claimed for the domain when its row is in the prevention state or says denied_before_execution. */
    public static boolean claimsPrevention(IsolationReport report, CapabilityDomain d) {
        DomainProjection row = report.row(d);
        return row.state() instanceof ControlState.Prevention || row.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION;
    }

    /** The report says, in so many words, that the domain is not covered. */
    public static boolean saysUncovered(IsolationReport report, CapabilityDomain d) {
        DomainProjection row = report.row(d);
        return row.state() instanceof ControlState.Unsupported || row.state() instanceof ControlState.Unmeasured;
    }

    public static String claim(IsolationReport report, CapabilityDomain d) {
        DomainProjection row = report.row(d);
        return row.state().token() + "/" + row.claim().token();
    }

    public static List<String> violations(IsolationReport pre, IsolationReport post, String backend,
                                          CapabilityDomain domain) {
        List<String> v = new ArrayList<>();
        if (pre.stage() != ReportStage.PRE_LAUNCH || post.stage() != ReportStage.POST_RUN) {
            v.add("report stages are " + pre.stage().token() + "/" + post.stage().token());
        }
        for (IsolationReport r : List.of(pre, post)) {
            String stage = r.stage().token();
            if (backend.equals(SuiteRunner.NONE)) {
                if (r.posture() != ReportedPosture.NO_BOUNDARY) {
                    v.add(stage + ": an unconfined launch reports posture " + r.posture().token());
                }
                if (r.backend().isPresent()) {
                    v.add(stage + ": an unconfined launch names backend " + r.backend().get().id());
                }
                for (CapabilityDomain d : CapabilityDomain.values()) {
                    if (claimsPrevention(r, d)) {
                        v.add(stage + ": an unconfined launch claims prevention for " + d.token());
                    }
                }
            } else {
                if (r.backend().map(b -> !b.id().equals(backend)).orElse(true)) {
                    v.add(stage + ": the launch ran on " + backend + " but the report names "
                            + r.backend().map(b -> b.id()).orElse("no backend"));
                }
                if (r.posture() == ReportedPosture.NO_BOUNDARY) {
                    v.add(stage + ": a confined launch reports no boundary");
                }
            }
            if (!(r.row(domain).requested() instanceof RequestedControl.Stated)) {
                v.add(stage + ": the policy states " + domain.token() + " but the report shows it "
                        + r.row(domain).requested().token());
            }
            for (DomainProjection row : r.domains()) {
                if (row.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION && !(row.state() instanceof ControlState.Prevention)) {
                    v.add(stage + ": " + row.domain().token() + " claims denied_before_execution in state "
                            + row.state().token());
                }
            }
        }
        for (DomainProjection row : pre.domains()) {
            if (row.claim().assertsCoverage()) {
                v.add("pre_launch: " + row.domain().token() + " asserts coverage (" + row.claim().token()
                        + ") before anything ran");
            }
        }
        return v;
    }
}
