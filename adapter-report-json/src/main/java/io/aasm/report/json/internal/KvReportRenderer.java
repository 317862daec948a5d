package io.aasm.report.json.internal;

import io.aasm.ports.backend.Provenance;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.report.BackendSelection;
import io.aasm.ports.report.ConsideredBackend;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportFormatName;
import io.aasm.ports.report.ReportOrder;
import io.aasm.ports.report.ReportRenderer;
import io.aasm.ports.report.ReportWording;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/**
 * The versioned machine block: a header line, then one {@code key=value} record per line with
 * {@code schema=} first. Keys follow the original's order; keys are only ever added. A key whose
 * value is absent is left out (an empty value is the empty string).
 */
@Component(service = ReportRenderer.class)
@ReportFormatName(KvReportRenderer.FORMAT)
public final class KvReportRenderer implements ReportRenderer {
    static final String FORMAT = "kv";
    static final String HEADER = "--- execution isolation (machine-readable) ---";

    @Override
    public String format() {
        return FORMAT;
    }

    @Override
    public String render(IsolationReport r) {
        KvLines kv = new KvLines().raw(HEADER);
        kv.put("schema", r.schema());
        kv.put("stage", r.stage().token());
        kv.put("posture", r.posture().token());
        r.postureDetail().ifPresent(d -> kv.put("posture_detail", d));
        kv.put("least_authority", r.leastAuthority());
        kv.list("least_authority.gap_count", "least_authority.gap", r.leastAuthorityGaps());
        kv.put("agent_id", r.identity().agentId());
        r.identity().teamId().ifPresent(t -> kv.put("team_id", t));
        kv.list("lineage_depth", "lineage", r.identity().lineage());
        kv.put("isolation_class", r.isolationClass().token());
        kv.put("policy_origin", r.policyOrigin());
        kv.put("target_program", r.target().program());
        kv.put("target_arg_count", r.target().argumentCount());
        kv.put("backend_selected", r.backend().isPresent());
        r.backend().ifPresent(b -> {
            Provenance p = b.provenance();
            kv.put("backend_id", b.id()).put("backend_version", b.version()).put("backend_source", p.source())
                    .put("backend_license", p.license()).put("backend_modified", p.modified())
                    .put("backend_provenance", p.status().token());
            p.sha256().ifPresent(s -> kv.put("backend_sha256", s));
        });
        r.backendUnavailable().ifPresent(u -> kv.put("backend_unavailable", u));
        r.selection().ifPresent(s -> selection(s, kv));
        requested(r, kv);
        KvBody.write(r, kv);
        return kv.toString();
    }

    private static void selection(BackendSelection s, KvLines kv) {
        kv.put("backend_selection_mode", s.mode().token());
        kv.put("backend_selection.considered_count", s.considered().size());
        for (int i = 0; i < s.considered().size(); i++) {
            ConsideredBackend c = s.considered().get(i);
            String k = "backend_selection.considered." + i;
            kv.put(k + ".id", c.id()).put(k + ".verdict", c.verdict().token()).put(k + ".detail", c.detail());
            kv.list(k + ".unmet_domain_count", k + ".unmet_domain",
                    c.unmetDomains().stream().map(d -> d.token()).toList());
        }
    }

    private static void requested(IsolationReport r, KvLines kv) {
        List<ControlRequirement> reqs = r.requested().stream().sorted(ReportOrder.REQUIREMENTS).toList();
        kv.put("requested_requirement_count", reqs.size());
        for (int i = 0; i < reqs.size(); i++) {
            ControlRequirement q = reqs.get(i);
            String k = "requested." + i;
            kv.put(k + ".domain", q.domain().token()).put(k + ".intent", q.intent().token())
                    .put(k + ".posture", q.posture().token()).put(k + ".descendants", q.descendants().token())
                    .put(k + ".scope_kind", q.scope().token()).put(k + ".scope", ReportWording.scope(q.scope()));
        }
    }
}
