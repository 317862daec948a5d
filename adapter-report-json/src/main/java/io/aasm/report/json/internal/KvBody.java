package io.aasm.report.json.internal;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.RefusalEntry;
import io.aasm.ports.report.ReportOrder;
import io.aasm.ports.report.ReportWording;
import java.util.List;

/** The per-domain, refusal, credential, descriptor, policy and post-run records of the kv block. */
final class KvBody {
    private KvBody() {
    }

    static void write(IsolationReport r, KvLines kv) {
        kv.put("domain_count", r.domains().size());
        r.domains().forEach(d -> domain(d, kv));
        List<RefusalEntry> refusals = r.refusals().stream().sorted(ReportOrder.REFUSALS).toList();
        kv.put("refusal_count", refusals.size());
        for (int i = 0; i < refusals.size(); i++) {
            RefusalEntry e = refusals.get(i);
            String k = "refusal." + i;
            e.domain().ifPresent(d -> kv.put(k + ".domain", d.token()));
            kv.put(k + ".reason", e.reason()).put(k + ".detail", e.detail());
        }
        credentials(r, kv);
        descriptors(r, kv);
        authority(r, kv);
        kv.list("policy.unmapped_count", "policy.unmapped", ReportOrder.sorted(r.unmapped()));
        postRun(r, kv);
    }

    private static void domain(DomainProjection d, KvLines kv) {
        String k = "domain." + d.domain().token();
        kv.put(k + ".requested", d.requested().token());
        kv.put(k + ".requested_detail", ReportWording.requestedDetail(d.requested()));
        kv.put(k + ".state", d.state().token());
        kv.put(k + ".state_detail", ReportWording.stateDetail(d.state()));
        kv.put(k + ".claim", d.claim().token());
        kv.put(k + ".evidence", d.evidence().token());
        kv.list(k + ".policy_gap_count", k + ".policy_gap", d.policyGaps());
        kv.put(k + ".state_explanation", ReportWording.stateExplanation(d.state()));
        kv.put(k + ".mechanism", d.mechanism());
        kv.list(k + ".limitation_count", k + ".limitation", d.limitations());
    }

    private static void credentials(IsolationReport r, KvLines kv) {
        CredentialPosture c = r.credentials();
        kv.list("credential.removed_count", "credential.removed", List.copyOf(c.removed()));
        kv.list("credential.delegated_count", "credential.delegated", List.copyOf(c.delegated()));
        kv.list("credential.ambient_unremoved_count", "credential.ambient_unremoved",
                List.copyOf(c.ambientUnremoved()));
        kv.list("credential.contradiction_count", "credential.contradiction", c.contradictions());
        kv.put("credential.environ_caveat", ReportWording.environCaveatApplies(r));
    }

    private static void descriptors(IsolationReport r, KvLines kv) {
        kv.put("descriptors_present", r.descriptors().isPresent());
        if (r.descriptors().isEmpty()) {
            return;
        }
        DescriptorInventory d = r.descriptors().get();
        kv.put("descriptors.enumeration_complete", d.complete());
        kv.list("descriptors.residual_count", "descriptors.residual", ReportOrder.sorted(d.residual()));
        kv.put("descriptors.asserts_clean_boundary", d.clean());
        kv.list("descriptors.kept_count", "descriptors.kept", d.kept().stream().sorted().map(String::valueOf).toList());
        kv.list("descriptors.sealed_count", "descriptors.sealed",
                d.sealed().stream().sorted().map(String::valueOf).toList());
    }

    private static void authority(IsolationReport r, KvLines kv) {
        kv.put("authority_present", r.authority().isPresent());
        r.authority().ifPresent(a -> kv.put("authority.measured", a.measured()).put("authority.least", a.clean())
                .put("authority.cap_inheritable", a.capInheritable()).put("authority.cap_permitted", a.capPermitted())
                .put("authority.cap_effective", a.capEffective()).put("authority.cap_bounding", a.capBounding())
                .put("authority.cap_ambient", a.capAmbient()).put("authority.no_new_privs", a.noNewPrivs())
                .put("authority.seccomp", a.seccomp()).put("authority.source", a.source()));
    }

    private static void postRun(IsolationReport r, KvLines kv) {
        kv.put("outcome_present", r.outcome().isPresent());
        r.outcome().ifPresent(o -> kv.put("outcome.disposition", o.disposition())
                .put("outcome.shell_status", o.shellStatus()).put("outcome.detail", o.detail()));
        kv.put("evidence_present", r.evidence().isPresent());
        r.evidence().ifPresent(e -> {
            kv.put("evidence.backend_id", e.backendId());
            kv.put("evidence.record_count", e.records().size());
            for (int i = 0; i < e.records().size(); i++) {
                EvidenceRecord rec = e.records().get(i);
                String k = "evidence." + i;
                kv.put(k + ".kind", rec.kind().token());
                rec.domain().ifPresent(d -> kv.put(k + ".domain", d.token()));
                kv.put(k + ".claim", rec.claim().token()).put(k + ".detail", rec.detail());
            }
        });
    }
}
