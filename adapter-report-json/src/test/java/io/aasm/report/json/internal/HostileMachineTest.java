package io.aasm.report.json.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.ports.report.UntrustedText;
import io.aasm.ports.report.fixtures.HostileReports;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Escape sequences, control bytes and invisible format characters in any program-influenced value:
 * kv cleans them like the human report, JSON keeps the values exact but never prints a control
 * character raw.
 */
class HostileMachineTest {
    @Test
    void kvReadsExactlyLikeThePreCleanedReportAndForgesNoRecord() {
        KvReportRenderer kv = new KvReportRenderer();
        String hostile = kv.render(HostileReports.report());
        assertEquals(List.of(), HostileReports.unsafeForLines(hostile));
        assertEquals(kv.render(HostileReports.report(UntrustedText.clean(HostileReports.PAYLOAD))), hostile);
        Map<String, String> records = KvReportRendererTest.parse(hostile);
        assertEquals("degraded", records.get("posture"));
        for (String label : HostileReports.LABELS) {
            String shown = UntrustedText.clean(HostileReports.tainted(label));
            assertTrue(records.values().stream().anyMatch(v -> v.contains(shown)), label + "\n" + hostile);
        }
    }

    @Test
    void jsonKeepsEveryValueExactAndPrintsNoControlCharacterRaw() throws Exception {
        String json = new JsonReportRenderer().render(HostileReports.report());
        assertEquals(List.of(), HostileReports.rawControls(json));
        assertTrue(json.contains("\\u001B[2J") || json.contains("\\u001b[2J"), "ESC appears escaped");
        List<String> values = new ArrayList<>();
        collectText(new ObjectMapper().readTree(json), values);
        for (String label : HostileReports.LABELS) {
            String exact = HostileReports.tainted(label);
            assertTrue(values.stream().anyMatch(v -> v.contains(exact)), label);
        }
    }

    /** Control for the JSON check: the same payload printed without JSON escaping is caught. */
    @Test
    void theRawControlCheckerSeesAnUnescapedPayload() {
        assertEquals(List.of("U+001B@0", "U+001B@4", "U+0007@13", "U+000D@14", "U+0009@16", "U+0000@17",
                "U+007F@18", "U+0085@19", "U+009B@20"), HostileReports.rawControls(HostileReports.PAYLOAD));
    }

    private static void collectText(JsonNode node, List<String> out) {
        if (node.isTextual()) {
            out.add(node.asText());
        }
        node.forEach(child -> collectText(child, out));
    }
}
