package io.aasm.report.text.internal;

import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.report.IsolationReport;
import java.util.Comparator;
import java.util.List;

/** The requirements lowered from policy, one line each, in domain order. */
final class RequestedSection {
    static final Comparator<ControlRequirement> ORDER = Comparator.comparing(ControlRequirement::domain)
            .thenComparing(Describe::requirement);

    private RequestedSection() {
    }

    static void write(IsolationReport r, Lines out) {
        out.add("requested capability set:");
        List<ControlRequirement> reqs = r.requested().stream().sorted(ORDER).toList();
        if (reqs.isEmpty()) {
            out.item("<empty> — the policy lowered to no requirement; an empty set never means unrestricted");
            return;
        }
        for (ControlRequirement req : reqs) {
            out.item(req.domain().token() + ": " + Describe.requirement(req));
        }
    }
}
