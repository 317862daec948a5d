package io.aasm.audit.internal;

import io.aasm.ports.audit.LaunchAudit;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of one launch's record, in a fixed order: who asked (as asserted), what ran (the program and a
 * digest of its arguments), under which policy (path and digest) and backend (id, version, provenance
 * digest), requested and achieved per domain, how many decisions each domain recorded, and how it ended.
 * Never an environment value, an argument or a file's contents.
 */
final class LaunchRecord {
    private LaunchRecord() {
    }

    static Map<String, Object> of(LaunchAudit a) {
        IsolationReport r = a.report();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("launch", a.launchId());
        m.put("started", a.startedAt().toString());
        m.put("ended", a.endedAt().toString());
        Map<String, Object> who = new LinkedHashMap<>();
        who.put("agent", r.identity().agentId());
        r.identity().teamId().ifPresent(t -> who.put("team", t));
        who.put("lineage", r.identity().lineage());
        m.put("identity", who);
        m.put("program", r.target().program());
        m.put("arguments", r.target().argumentCount());
        m.put("arguments_sha256", a.argumentsSha256());
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("path", r.policyOrigin());
        a.policySha256().ifPresent(d -> policy.put("sha256", d));
        m.put("policy", policy);
        m.put("isolation_class", r.isolationClass().token());
        r.backend().ifPresent(b -> {
            Map<String, Object> backend = new LinkedHashMap<>();
            backend.put("id", b.id());
            backend.put("version", b.version());
            b.provenance().sha256().ifPresent(d -> backend.put("sha256", d));
            backend.put("provenance", b.provenance().status().token());
            m.put("backend", backend);
        });
        m.put("posture", r.posture().token());
        Map<String, Object> domains = new LinkedHashMap<>();
        for (DomainProjection d : r.domains()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("requested", d.requested().token());
            row.put("state", d.state().token());
            row.put("claim", d.claim().token());
            row.put("evidence", d.evidence().token());
            domains.put(d.domain().token(), row);
        }
        m.put("domains", domains);
        Map<CapabilityDomain, Integer> counts = new EnumMap<>(CapabilityDomain.class);
        r.evidence().ifPresent(e -> e.records().stream().filter(x -> x.kind() == EvidenceKind.DECISION)
                .forEach(x -> x.domain().ifPresent(d -> counts.merge(d, 1, Integer::sum))));
        Map<String, Object> decisions = new LinkedHashMap<>();
        counts.forEach((d, n) -> decisions.put(d.token(), n));
        m.put("decision_records", decisions);
        r.outcome().ifPresent(o -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("disposition", o.disposition());
            out.put("status", o.shellStatus());
            m.put("outcome", out);
        });
        return m;
    }
}
