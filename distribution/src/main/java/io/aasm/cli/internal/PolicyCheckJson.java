package io.aasm.cli.internal;

import io.aasm.ports.kernel.PolicyCheck;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DomainCoverage;
import io.aasm.ports.policy.DomainLowering;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.PolicyProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code aasm policy check --json} ({@code docs/schema/policy-check.schema.json}): the same facts as
 * {@link LoweringView} and the problem lines, as one document whether the policy is valid or not.
 */
final class PolicyCheckJson {
    static final String SCHEMA = "aasm.policy.check/1";

    private PolicyCheckJson() {
    }

    static String render(PolicyCheck check) {
        Map<String, Object> doc = Json.object(SCHEMA);
        doc.put("origin", check.origin());
        doc.put("valid", check.lowering().isPresent());
        List<Object> problems = new ArrayList<>();
        for (PolicyProblem p : check.problems()) {
            Map<String, Object> m = Json.object(null);
            m.put("file", p.where().file());
            m.put("line", p.where().line());
            m.put("column", p.where().column());
            m.put("message", p.message());
            m.put("hint", p.hint());
            problems.add(m);
        }
        doc.put("problems", problems);
        doc.put("lowering", check.lowering().map(PolicyCheckJson::lowering).orElse(null));
        return Json.render(doc);
    }

    private static Map<String, Object> lowering(PolicyLowering l) {
        Map<String, Object> m = Json.object(null);
        m.put("isolation", l.isolation().map(c -> c.token()).orElse(null));
        List<Object> domains = new ArrayList<>();
        for (DomainLowering d : l.domains()) {
            Map<String, Object> row = Json.object(null);
            row.put("domain", d.domain().token());
            row.put("coverage", d.coverage().token());
            row.put("detail", detail(d.coverage()));
            row.put("residual_gaps", d.residualGaps());
            domains.add(row);
        }
        m.put("domains", domains);
        List<Object> reqs = new ArrayList<>();
        for (ControlRequirement r : l.requirements()) {
            Map<String, Object> row = Json.object(null);
            row.put("domain", r.domain().token());
            row.put("intent", r.intent().token());
            row.put("posture", r.posture().token());
            row.put("descendants", r.descendants().token());
            Map<String, Object> scope = Json.object(null);
            scope.put("kind", r.scope().token());
            scope.put("summary", LoweringView.scope(r.scope()));
            row.put("scope", scope);
            reqs.add(row);
        }
        m.put("requirements", reqs);
        m.put("unmapped", l.unmapped());
        return m;
    }

    private static String detail(DomainCoverage c) {
        if (c instanceof DomainCoverage.Lowered low) {
            return "from " + low.sourcedFrom();
        }
        if (c instanceof DomainCoverage.NotStated ns) {
            return ns.node() + " absent; default: " + ns.schemaDefault();
        }
        return ((DomainCoverage.PolicyCannotExpress) c).detail();
    }
}
