package io.aasm.report.text.internal;

import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportWording;
import java.util.ArrayList;
import java.util.List;

/** The nine-row table (requested, state, claim and evidence side by side) and per-domain detail. */
final class DomainTableSection {
    private static final String[] HEADER = {"DOMAIN", "REQUESTED", "STATE", "CLAIM", "EVIDENCE"};
    private static final String GAP = "  ";

    private DomainTableSection() {
    }

    static void write(IsolationReport r, Lines out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (DomainProjection d : r.domains()) {
            rows.add(new String[] {d.domain().token(), d.requested().token(), d.state().token(),
                d.claim().token(), d.evidence().token()});
        }
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        out.add("per-domain capabilities (requested vs achieved, never collapsed):");
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == row.length - 1 ? row[i] : pad(row[i], widths[i]) + GAP);
            }
            out.item(line.toString());
        }
        writeDetail(r, out);
    }

    private static void writeDetail(IsolationReport r, Lines out) {
        List<DomainProjection> shown = r.domains().stream().filter(DomainTableSection::hasDetail).toList();
        if (shown.isEmpty()) {
            return;
        }
        out.add("domain detail:");
        for (DomainProjection d : shown) {
            if (!(d.state() instanceof ControlState.Unmeasured)) {
                out.item(d.domain().token() + ": " + d.state().token() + " " + ReportWording.stateDetail(d.state()));
            } else {
                out.item(d.domain().token() + ":");
            }
            if (!d.mechanism().isEmpty()) {
                out.item("  mechanism: " + d.mechanism());
            }
            for (String limitation : d.limitations()) {
                out.item("  limitation: " + limitation);
            }
        }
    }

    /** Unmeasured rows without mechanism or limitations say all there is in the unmeasured list. */
    private static boolean hasDetail(DomainProjection d) {
        return !(d.state() instanceof ControlState.Unmeasured) || !d.mechanism().isEmpty()
                || !d.limitations().isEmpty();
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }
}
