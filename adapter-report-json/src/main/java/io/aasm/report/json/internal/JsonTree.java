package io.aasm.report.json.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.report.BackendSelection;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.report.ReportOrder;
import io.aasm.ports.report.ReportWording;
import java.util.Optional;
import java.util.function.Function;

/**
 * The report as one JSON object, fields in a fixed order. Absent values are {@code null}, never
 * missing, so every report has the same field set. Strings are kept verbatim (JSON escapes them).
 */
final class JsonTree {
    private JsonTree() {
    }

    static ObjectNode of(IsolationReport r) {
        ObjectNode o = JsonParts.F.objectNode();
        o.put("schema", r.schema());
        o.put("stage", r.stage().token());
        o.put("posture", r.posture().token());
        o.put("posture_label", r.posture().label());
        o.put("posture_detail", r.postureDetail().orElse(null));
        o.putObject("least_authority").put("holds", r.leastAuthority())
                .set("gaps", JsonParts.strings(r.leastAuthorityGaps()));
        ObjectNode who = o.putObject("identity");
        who.put("agent_id", r.identity().agentId()).put("team_id", r.identity().teamId().orElse(null));
        who.set("lineage", JsonParts.strings(r.identity().lineage()));
        o.put("isolation_class", r.isolationClass().token());
        o.put("policy_origin", r.policyOrigin());
        o.putObject("target").put("program", r.target().program()).put("argument_count", r.target().argumentCount());
        o.set("backend", orNull(r.backend(), JsonTree::backend));
        o.put("backend_unavailable", r.backendUnavailable().orElse(null));
        o.set("selection", orNull(r.selection(), JsonTree::selection));
        ArrayNode requested = o.putArray("requested");
        r.requested().stream().sorted(ReportOrder.REQUIREMENTS).forEach(q -> requested.add(JsonParts.requirement(q)));
        ArrayNode domains = o.putArray("domains");
        r.domains().forEach(d -> domains.add(domain(d)));
        ArrayNode refusals = o.putArray("refusals");
        r.refusals().stream().sorted(ReportOrder.REFUSALS).forEach(e -> refusals.addObject()
                .put("domain", e.domain().map(d -> d.token()).orElse(null))
                .put("reason", e.reason()).put("detail", e.detail()));
        o.set("policy_unmapped", JsonParts.strings(ReportOrder.sorted(r.unmapped())));
        o.set("credentials", credentials(r));
        o.set("descriptors", orNull(r.descriptors(), JsonTree::descriptors));
        o.set("authority", orNull(r.authority(), JsonTree::authority));
        o.set("outcome", orNull(r.outcome(), out -> JsonParts.F.objectNode().put("disposition", out.disposition())
                .put("shell_status", out.shellStatus()).put("detail", out.detail())));
        o.set("evidence", orNull(r.evidence(), JsonTree::evidence));
        return o;
    }

    private static ObjectNode backend(BackendIdentity b) {
        ObjectNode o = JsonParts.F.objectNode().put("id", b.id()).put("version", b.version());
        o.putObject("provenance").put("source", b.provenance().source()).put("license", b.provenance().license())
                .put("modified", b.provenance().modified()).put("sha256", b.provenance().sha256().orElse(null))
                .put("status", b.provenance().status().token());
        return o;
    }

    private static ObjectNode selection(BackendSelection s) {
        ObjectNode o = JsonParts.F.objectNode().put("mode", s.mode().token());
        ArrayNode considered = o.putArray("considered");
        s.considered().forEach(c -> considered.addObject().put("id", c.id()).put("verdict", c.verdict().token())
                .put("detail", c.detail())
                .set("unmet_domains", JsonParts.strings(c.unmetDomains().stream().map(d -> d.token()).toList())));
        return o;
    }

    private static ObjectNode domain(DomainProjection d) {
        ObjectNode o = JsonParts.F.objectNode().put("domain", d.domain().token());
        o.set("requested", JsonParts.requested(d.requested()));
        o.set("state", JsonParts.state(d.state()));
        o.put("claim", d.claim().token()).put("evidence", d.evidence().token()).put("mechanism", d.mechanism());
        o.set("limitations", JsonParts.strings(d.limitations()));
        o.set("policy_gaps", JsonParts.strings(d.policyGaps()));
        return o;
    }

    private static ObjectNode credentials(IsolationReport r) {
        CredentialPosture c = r.credentials();
        ObjectNode o = JsonParts.F.objectNode();
        o.set("removed", JsonParts.strings(c.removed()));
        o.set("delegated", JsonParts.strings(c.delegated()));
        o.set("ambient_unremoved", JsonParts.strings(c.ambientUnremoved()));
        o.set("contradictions", JsonParts.strings(c.contradictions()));
        o.put("environ_caveat", ReportWording.environCaveatApplies(r));
        return o;
    }

    private static ObjectNode descriptors(DescriptorInventory d) {
        ObjectNode o = JsonParts.F.objectNode().put("complete", d.complete()).put("clean", d.clean());
        ArrayNode kept = o.putArray("kept");
        d.kept().stream().sorted().forEach(kept::add);
        ArrayNode sealed = o.putArray("sealed");
        d.sealed().stream().sorted().forEach(sealed::add);
        o.set("residual", JsonParts.strings(ReportOrder.sorted(d.residual())));
        return o;
    }

    private static ObjectNode authority(ProcessAuthority a) {
        ObjectNode o = JsonParts.F.objectNode().put("measured", a.measured()).put("least", a.clean())
                .put("cap_inheritable", a.capInheritable()).put("cap_permitted", a.capPermitted())
                .put("cap_effective", a.capEffective()).put("cap_bounding", a.capBounding())
                .put("cap_ambient", a.capAmbient()).put("no_new_privs", a.noNewPrivs()).put("seccomp", a.seccomp())
                .put("source", a.source());
        o.set("gaps", JsonParts.strings(a.gaps()));
        return o;
    }

    private static ObjectNode evidence(EnforcementEvidence e) {
        ObjectNode o = JsonParts.F.objectNode().put("backend_id", e.backendId());
        ArrayNode records = o.putArray("records");
        e.records().forEach(rec -> records.addObject().put("kind", rec.kind().token())
                .put("domain", rec.domain().map(d -> d.token()).orElse(null))
                .put("claim", rec.claim().token()).put("detail", rec.detail()));
        return o;
    }

    private static <T> com.fasterxml.jackson.databind.JsonNode orNull(Optional<T> value,
                                                                      Function<T, ObjectNode> render) {
        return value.<com.fasterxml.jackson.databind.JsonNode>map(render).orElse(JsonParts.F.nullNode());
    }
}
