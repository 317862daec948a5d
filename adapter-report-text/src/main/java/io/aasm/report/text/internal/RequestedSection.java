package io.aasm.report.text.internal;

import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportOrder;
import io.aasm.ports.report.ReportWording;
import java.util.List;

/** The requirements lowered from policy, one line each, in domain order. */
final class RequestedSection {
    private RequestedSection() {
    }

    static void write(IsolationReport r, Lines out) {
        out.add("requested capability set:");
        List<ControlRequirement> reqs = r.requested().stream().sorted(ReportOrder.REQUIREMENTS).toList();
        if (reqs.isEmpty()) {
            out.item("<empty> — no requirement was lowered; an empty set never means unrestricted");
            return;
        }
        for (ControlRequirement req : reqs) {
            out.item(req.domain().token() + ": " + ReportWording.requirement(req));
        }
    }
}
