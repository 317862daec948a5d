package io.aasm.cli.internal;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.Prerequisite;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.kernel.BackendStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One backend as JSON ({@code $defs/backend} of {@code docs/schema/backends.schema.json} and
 * {@code probe.schema.json}): the same facts as {@link BackendView}. Nine domain rows, always in the
 * domain order; a domain without a report is {@code "reported": false} (unknown, which is not
 * unsupported).
 */
final class BackendJson {
    static final String BACKENDS_SCHEMA = "aasm.backends/1";
    static final String PROBE_SCHEMA = "aasm.probe/1";

    private BackendJson() {
    }

    static Map<String, Object> backend(BackendStatus status) {
        Map<String, Object> b = Json.object(null);
        b.put("id", status.id());
        b.put("identity", status.identity().map(BackendJson::identity).orElse(null));
        b.put("fault", Json.orNull(status.fault()));
        b.put("capabilities", status.capabilities().map(BackendJson::capabilities).orElse(null));
        return b;
    }

    private static Map<String, Object> identity(BackendIdentity id) {
        Provenance p = id.provenance();
        Map<String, Object> prov = Json.object(null);
        prov.put("source", p.source());
        prov.put("license", p.license());
        prov.put("modified", p.modified());
        prov.put("status", p.status().token());
        prov.put("sha256", Json.orNull(p.sha256()));
        Map<String, Object> m = Json.object(null);
        m.put("version", id.version());
        m.put("provenance", prov);
        return m;
    }

    private static Map<String, Object> capabilities(BackendCapabilities c) {
        Map<String, Object> m = Json.object(null);
        m.put("available", c.availability() instanceof Availability.Available);
        m.put("unavailable_reason", c.availability() instanceof Availability.Unavailable u ? u.reason() : null);
        m.put("platform_boundary", c.platformBoundary().token());
        m.put("measured_at", c.measuredAt().map(Object::toString).orElse(null));
        List<Object> rows = new ArrayList<>();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            rows.add(row(d, c.reportFor(d)));
        }
        m.put("domains", rows);
        return m;
    }

    private static Map<String, Object> row(CapabilityDomain d, Optional<CapabilityReport> report) {
        Map<String, Object> r = Json.object(null);
        r.put("domain", d.token());
        r.put("reported", report.isPresent());
        if (report.isEmpty()) {
            return r;
        }
        CapabilityReport cr = report.get();
        r.put("mediation", cr.mediation().token());
        r.put("timing", cr.timing().token());
        r.put("synchrony", cr.synchrony().token());
        r.put("failure_posture", cr.failurePosture().token());
        r.put("descendants", cr.descendants().token());
        r.put("support", cr.support().token());
        r.put("can_prevent", cr.canPrevent());
        r.put("mechanism", cr.mechanism());
        r.put("unsupported_reason", cr.support() instanceof SupportLevel.Unsupported u ? u.reason() : null);
        r.put("limitations", cr.support() instanceof SupportLevel.Partial p ? p.limitations() : List.of());
        List<Object> pre = new ArrayList<>();
        for (Prerequisite p : cr.prerequisites()) {
            Map<String, Object> m = Json.object(null);
            m.put("requirement", p.requirement());
            m.put("status", p.status().token());
            m.put("detail", detail(p.status()));
            pre.add(m);
        }
        r.put("prerequisites", pre);
        return r;
    }

    private static String detail(PrerequisiteStatus s) {
        if (s instanceof PrerequisiteStatus.Satisfied ok) {
            return ok.observation();
        }
        if (s instanceof PrerequisiteStatus.Unsatisfied no) {
            return no.detail();
        }
        return ((PrerequisiteStatus.Unchecked) s).detail();
    }
}
