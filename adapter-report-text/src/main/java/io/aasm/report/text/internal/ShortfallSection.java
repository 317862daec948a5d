package io.aasm.report.text.internal;

import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportOrder;
import io.aasm.ports.report.ReportWording;
import java.util.List;

/** What is not enforced as requested: degraded and unsupported controls, refusals, unmeasured rows. */
final class ShortfallSection {
    private ShortfallSection() {
    }

    static void writeShortfalls(IsolationReport r, Lines out) {
        List<DomainProjection> weak = r.domains().stream().filter(d -> d.state() instanceof ControlState.Degraded
                || d.state() instanceof ControlState.Unsupported).toList();
        if (!weak.isEmpty()) {
            out.add("degraded or unsupported controls — these are NOT enforced as requested:");
            for (DomainProjection d : weak) {
                out.item(d.domain().token() + ": " + d.state().token() + " — " + ReportWording.stateDetail(d.state())
                        + " — " + ReportWording.stateExplanation(d.state()));
            }
        }
        if (!r.refusals().isEmpty()) {
            out.add("refused before launch — every reason, launch-wide first; nothing was started:");
            r.refusals().stream().sorted(ReportOrder.REFUSALS).forEach(e -> out.item(
                    e.domain().map(d -> d.token()).orElse("launch") + ": " + e.reason() + " — " + e.detail()));
        }
    }

    static void writeUnmeasured(IsolationReport r, Lines out) {
        List<DomainProjection> unmeasured = r.domains().stream()
                .filter(d -> d.state() instanceof ControlState.Unmeasured).toList();
        if (unmeasured.isEmpty()) {
            return;
        }
        out.add("unmeasured — no claim is made about these domains, in either direction:");
        for (DomainProjection d : unmeasured) {
            String explanation = ReportWording.stateExplanation(d.state());
            out.item(d.domain().token() + ": " + ReportWording.stateDetail(d.state())
                    + (explanation.isEmpty() ? "" : " — " + explanation));
        }
    }
}
