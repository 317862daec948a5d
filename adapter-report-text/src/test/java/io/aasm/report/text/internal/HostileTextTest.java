package io.aasm.report.text.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.report.UntrustedText;
import io.aasm.ports.report.fixtures.HostileReports;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Escape sequences, control bytes and invisible format characters in any program-influenced value
 * never reach the human report raw: the report reads exactly as if every value had been cleaned first.
 */
class HostileTextTest {
    private final TextReportRenderer renderer = new TextReportRenderer();

    @Test
    void hostileValuesArriveDefusedAndForgeNoLine() {
        String hostile = renderer.render(HostileReports.report());
        assertEquals(List.of(), HostileReports.unsafeForLines(hostile));
        String control = renderer.render(HostileReports.report(UntrustedText.clean(HostileReports.PAYLOAD)));
        assertEquals(control, hostile, "the hostile report must read exactly like the pre-cleaned one");
        assertEquals(1, hostile.lines().filter(l -> l.startsWith("posture: ")).count());
    }

    @Test
    void everyHostileValueIsStillShown() {
        String text = renderer.render(HostileReports.report());
        for (String label : HostileReports.LABELS) {
            // the text report does not repeat where the authority figures come from; kv and json do
            if (!label.equals("authority_source")) {
                assertTrue(text.contains(UntrustedText.clean(HostileReports.tainted(label))), label + "\n" + text);
            }
        }
    }

    /** Control for the checker: it flags every unsafe character of the payload (all but the line feed). */
    @Test
    void theCheckerSeesThePayload() {
        assertEquals(List.of("U+001B@0", "U+001B@4", "U+0007@13", "U+000D@14", "U+0009@16", "U+0000@17",
                "U+007F@18", "U+0085@19", "U+009B@20", "U+2028@24", "U+2029@25", "U+202E@26", "U+200B@27",
                "U+E0001@28"), HostileReports.unsafeForLines(HostileReports.PAYLOAD));
    }
}
