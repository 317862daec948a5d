package io.aasm.report.text.internal;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.report.ConsideredBackend;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import java.util.List;

/** Who launched what, under which posture, with which backend and how it was chosen. */
final class HeaderSection {
    private HeaderSection() {
    }

    static void write(IsolationReport r, Lines out) {
        out.add("schema: " + r.schema());
        out.add("stage: " + stage(r.stage()));
        out.add("posture: " + r.posture().label());
        r.postureDetail().ifPresent(d -> out.add("posture_detail: " + d));
        r.backendUnavailable().ifPresent(d -> out.add("backend_refusal: " + d));
        out.add("least_authority: " + leastAuthority(r));
        out.add("agent_id: " + r.identity().agentId());
        out.add("team_id: " + r.identity().teamId().orElse("<none>"));
        List<String> lineage = r.identity().lineage();
        out.add("lineage: " + (lineage.isEmpty() ? "<root launch, no ancestors>" : String.join(" > ", lineage)));
        out.add("isolation: " + r.isolationClass().token());
        out.add("policy: " + r.policyOrigin());
        out.add("target: " + r.target().program() + " (" + r.target().argumentCount() + " argument(s))");
        out.add("backend: " + r.backend().map(HeaderSection::backend).orElseGet(() -> noBackend(r)));
        r.selection().ifPresentOrElse(s -> {
            out.add("selection: " + s.mode().token());
            s.considered().forEach(c -> out.item("considered: " + considered(c)));
        }, () -> out.add("selection: <not recorded>"));
    }

    private static String stage(ReportStage stage) {
        return stage == ReportStage.PRE_LAUNCH
                ? "pre_launch — decided before anything started; no claim about a run"
                : "post_run — the program ran; claims rest only on the evidence records below";
    }

    private static String leastAuthority(IsolationReport r) {
        if (r.leastAuthority()) {
            return "yes — no ambient authority stayed and the descriptor inventory is clean";
        }
        return "NO — " + String.join("; ", r.leastAuthorityGaps());
    }

    private static String backend(BackendIdentity b) {
        Provenance p = b.provenance();
        return b.id() + " version=" + b.version() + " source=" + p.source() + " license=" + p.license()
                + " modified=" + p.modified() + " provenance=" + p.status().token()
                + " sha256=" + p.sha256().orElse("<none>");
    }

    private static String noBackend(IsolationReport r) {
        if (r.posture() == ReportedPosture.NO_BOUNDARY) {
            return "<none selected — no boundary was requested; the program runs unconfined>";
        }
        if (r.posture() == ReportedPosture.REFUSED) {
            return "<none selected — the launch was refused (reasons below); nothing was started>";
        }
        return "<none selected>";
    }

    private static String considered(ConsideredBackend c) {
        String line = c.id() + " [" + c.verdict().token() + "] " + c.detail();
        if (!c.unmetDomains().isEmpty()) {
            line += " (unmet: " + String.join(", ", c.unmetDomains().stream().map(d -> d.token()).toList()) + ")";
        }
        return line;
    }
}
