package io.aasm.report.text.internal;

import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportOrder;
import io.aasm.ports.report.RequestedControl;
import java.util.ArrayList;
import java.util.List;

/**
 * Policy gaps in separate blocks, because "the schema has no node", "the policy left it out" and
 * "the policy said it only partly" call for different fixes.
 */
final class PolicyGapSection {
    private PolicyGapSection() {
    }

    static void write(IsolationReport r, Lines out) {
        List<String> cannot = new ArrayList<>();
        List<String> notStated = new ArrayList<>();
        List<String> notDerived = new ArrayList<>();
        List<String> residual = new ArrayList<>();
        for (DomainProjection d : r.domains()) {
            String name = d.domain().token();
            if (d.requested() instanceof RequestedControl.PolicyCannotExpress p) {
                cannot.add(name + ": " + p.detail());
            } else if (d.requested() instanceof RequestedControl.NotStated n) {
                notStated.add(name + ": no " + n.node() + " node — schema default: " + n.schemaDefault());
            } else if (d.requested() instanceof RequestedControl.NotDerived) {
                notDerived.add(name);
            }
            d.policyGaps().forEach(g -> residual.add(name + ": " + g));
        }
        block(out, "policy cannot express these domains:", cannot);
        block(out, "not stated by this policy:", notStated);
        if (!notDerived.isEmpty()) {
            block(out, "no policy was derived — requested controls unknown for:", List.of(String.join(", ", notDerived)));
        }
        block(out, "residual policy gaps:", residual);
        block(out, "policy statements no capability domain can carry:", ReportOrder.sorted(r.unmapped()));
    }

    private static void block(Lines out, String title, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        out.add(title);
        items.forEach(out::item);
    }
}
