package io.aasm.report.text.internal;

import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.RunOutcome;

/** How the run ended and every evidence record, in the order the backend produced them. */
final class PostRunSection {
    private PostRunSection() {
    }

    static void write(IsolationReport r, Lines out) {
        if (r.stage() == ReportStage.POST_RUN || r.outcome().isPresent()) {
            out.add("outcome: " + r.outcome().map(PostRunSection::outcome).orElse("<not recorded>"));
        }
        if (r.stage() == ReportStage.POST_RUN || r.evidence().isPresent()) {
            r.evidence().ifPresentOrElse(e -> evidence(e, out), () -> out.add("evidence: <none recorded>"));
        }
    }

    private static String outcome(RunOutcome o) {
        return o.disposition() + " (shell status " + o.shellStatus() + ")" + (o.detail().isEmpty() ? "" : " — " + o.detail());
    }

    private static void evidence(EnforcementEvidence e, Lines out) {
        out.add("evidence from " + e.backendId() + " (" + e.records().size() + " record(s)):");
        for (EvidenceRecord rec : e.records()) {
            out.item(rec.kind().token() + " " + rec.domain().map(d -> d.token()).orElse("<run>")
                    + " claim=" + rec.claim().token() + " — " + rec.detail());
        }
    }
}
