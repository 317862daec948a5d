package io.aasm.conformance.internal.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Writes the results as JSON (machine-readable) and as a Markdown table (for people). */
public final class ResultWriter {
    private ResultWriter() {
    }

    public static void write(SuiteResult r, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("conformance-results.json"), json(r));
        Files.writeString(dir.resolve("conformance-summary.md"), markdown(r));
    }

    public static String json(SuiteResult r) {
        StringBuilder sb = new StringBuilder("{\n");
        sb.append("  \"schema\": ").append(q(SuiteResult.SCHEMA)).append(",\n");
        sb.append("  \"started\": ").append(q(r.started().toString())).append(",\n");
        sb.append("  \"elapsed_seconds\": ").append(r.elapsed().toSeconds()).append(",\n");
        sb.append("  \"host\": ").append(q(r.host())).append(",\n");
        sb.append("  \"passed\": ").append(r.passed()).append(",\n");
        sb.append("  \"backends\": {\n");
        for (int i = 0; i < r.backends().size(); i++) {
            String b = r.backends().get(i);
            sb.append("    ").append(q(b)).append(": {");
            Map<Outcome, Integer> c = r.counts(b);
            int k = 0;
            for (var e : c.entrySet()) {
                sb.append(k++ == 0 ? "" : ", ").append(q(e.getKey().token())).append(": ").append(e.getValue());
            }
            sb.append("}").append(i + 1 < r.backends().size() ? "," : "").append("\n");
        }
        sb.append("  },\n  \"results\": [\n");
        List<Verdict> vs = r.verdicts();
        for (int i = 0; i < vs.size(); i++) {
            Verdict v = vs.get(i);
            sb.append("    {\"scenario\": ").append(q(v.scenario())).append(", \"domain\": ").append(q(v.domain()))
                    .append(", \"backend\": ").append(q(v.backend())).append(", \"outcome\": ")
                    .append(q(v.outcome().token())).append(", \"fails\": ").append(v.fails())
                    .append(", \"report_claim\": ").append(q(v.reportClaim())).append(", \"claims_prevention\": ")
                    .append(v.claimsPrevention()).append(", \"detail\": ").append(q(v.detail())).append("}")
                    .append(i + 1 < vs.size() ? "," : "").append("\n");
        }
        return sb.append("  ]\n}\n").toString();
    }

    public static String markdown(SuiteResult r) {
        StringBuilder sb = new StringBuilder("# aasm conformance results\n\n");
        sb.append("Host: ").append(r.host()).append(". Started ").append(r.started()).append(", took ")
                .append(r.elapsed().toSeconds()).append(" s. Verdict: ")
                .append(r.passed() ? "PASS" : "FAIL (" + r.failures().size() + " failing cell(s))").append(".\n\n");
        sb.append(table(r)).append("\n## Counts\n\n| backend |");
        for (Outcome o : Outcome.values()) {
            sb.append(' ').append(o.token()).append(" |");
        }
        sb.append("\n|---|").append("---|".repeat(Outcome.values().length)).append('\n');
        for (String b : r.backends()) {
            sb.append("| ").append(b).append(" |");
            r.counts(b).values().forEach(n -> sb.append(' ').append(n).append(" |"));
            sb.append('\n');
        }
        sb.append("\n## Details\n\n");
        for (Verdict v : r.verdicts()) {
            sb.append("- ").append(v.fails() ? "**FAIL** " : "").append('`').append(v.scenario()).append("` on `")
                    .append(v.backend()).append("`: ").append(v.outcome().token()).append(" (report: ")
                    .append(v.reportClaim()).append(") — ").append(v.detail()).append('\n');
        }
        return sb.toString();
    }

    /** The scenario-by-backend table, cells "outcome (state/claim)"; failing cells are marked. */
    public static String table(SuiteResult r) {
        StringBuilder sb = new StringBuilder("| scenario | domain |");
        r.backends().forEach(b -> sb.append(' ').append(b).append(" |"));
        sb.append("\n|---|---|").append("---|".repeat(r.backends().size())).append('\n');
        for (String s : r.scenarios()) {
            Optional<Verdict> any = r.verdicts().stream().filter(v -> v.scenario().equals(s)).findFirst();
            sb.append("| ").append(s).append(" | ").append(any.map(Verdict::domain).orElse("")).append(" |");
            for (String b : r.backends()) {
                Optional<Verdict> v = r.verdicts().stream().filter(x -> x.scenario().equals(s) && x.backend().equals(b))
                        .findFirst();
                sb.append(' ').append(v.map(ResultWriter::cell).orElse("")).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String cell(Verdict v) {
        return (v.fails() ? "**FAIL** " : "") + v.outcome().token()
                + (v.reportClaim().equals("-") ? "" : " (" + v.reportClaim() + ")");
    }

    static String q(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
