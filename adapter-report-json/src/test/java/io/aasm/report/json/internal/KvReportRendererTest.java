package io.aasm.report.json.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.TargetSummary;
import io.aasm.ports.report.fixtures.Reordering;
import io.aasm.ports.report.fixtures.ReportFixtures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class KvReportRendererTest {
    private final KvReportRenderer renderer = new KvReportRenderer();

    /** Parses the block the way a consumer does: split on the first '=', stop at the first non-record. */
    static Map<String, String> parse(String block) {
        List<String> lines = block.lines().toList();
        assertEquals(KvReportRenderer.HEADER, lines.get(0));
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            int eq = line.indexOf('=');
            assertTrue(eq > 0, "not a record: " + line);
            String previous = out.put(line.substring(0, eq), line.substring(eq + 1));
            assertEquals(null, previous, "duplicate key " + line.substring(0, eq));
        }
        return out;
    }

    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void parsesBackWithUniqueKeysAndSchemaFirst(String name) {
        IsolationReport report = ReportFixtures.byName(name);
        Map<String, String> kv = parse(renderer.render(report));
        assertEquals("schema", kv.keySet().iterator().next());
        assertEquals(IsolationReport.SCHEMA, kv.get("schema"));
        assertEquals("9", kv.get("domain_count"));
        assertEquals(report.posture().token(), kv.get("posture"));
        assertEquals(String.valueOf(report.refusals().size()), kv.get("refusal_count"));
        kv.keySet().forEach(k -> assertTrue(k.matches("[a-z0-9_.]+"), k));
        kv.keySet().forEach(k -> assertFalse(k.contains("sandboxed") || k.endsWith("supported"), k));
    }

    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void deterministicAndIndependentOfInputOrder(String name) {
        IsolationReport report = ReportFixtures.byName(name);
        String first = renderer.render(report);
        assertEquals(first, renderer.render(report));
        assertEquals(first, renderer.render(Reordering.reordered(report)));
    }

    @Test
    void refusedReportListsEveryRefusalAndCandidate() {
        Map<String, String> kv = parse(renderer.render(ReportFixtures.byName("refused")));
        assertEquals("7", kv.get("refusal_count"));
        assertEquals("no_backend_eligible", kv.get("refusal.0.reason"));
        assertEquals("network_egress", kv.get("refusal.3.domain"));
        assertFalse(kv.containsKey("refusal.0.domain"), "a launch-wide refusal has no domain key");
        assertEquals("3", kv.get("backend_selection.considered_count"));
        assertEquals("4", kv.get("backend_selection.considered.1.unmet_domain_count"));
        assertEquals("false", kv.get("backend_selected"));
    }

    @Test
    void controlCharactersCannotForgeRecords() {
        IsolationReport base = ReportFixtures.byName("ready");
        IsolationReport hostile = new IsolationReport(base.schema(), base.stage(), base.posture(),
                Optional.of("x\nposture=ready\r\u001b[0m"), base.isolationClass(),
                new IdentityRef("a\u2028b", Optional.of("t\u0000"), List.of("p\nq")), new TargetSummary("/b\tin", 1),
                base.backend(), base.backendUnavailable(), base.selection(), "/p\n", base.requested(), base.domains(),
                base.refusals(), List.of("u\n=v"), base.credentials(), base.descriptors(), base.authority(), base.outcome(),
                base.evidence());
        Map<String, String> kv = parse(renderer.render(hostile));
        assertEquals("x posture=ready [0m", kv.get("posture_detail"));
        assertEquals("a b", kv.get("agent_id"));
        assertEquals("p q", kv.get("lineage.0"));
        assertEquals("u =v", kv.get("policy.unmapped.0"));
        assertEquals("ready", kv.get("posture"));
    }
}
