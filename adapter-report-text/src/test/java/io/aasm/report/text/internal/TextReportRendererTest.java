package io.aasm.report.text.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.TargetSummary;
import io.aasm.ports.report.fixtures.Reordering;
import io.aasm.ports.report.fixtures.ReportFixtures;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class TextReportRendererTest {
    private final TextReportRenderer renderer = new TextReportRenderer();

    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void renderingIsDeterministicAndIgnoresInputOrder(String name) {
        IsolationReport report = ReportFixtures.byName(name);
        String first = renderer.render(report);
        assertEquals(first, renderer.render(report));
        assertEquals(first, renderer.render(Reordering.reordered(report)));
    }

    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void tableHasNineRowsInFixedOrderAndNoSingleVerdict(String name) {
        List<String> lines = renderer.render(ReportFixtures.byName(name)).lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("  DOMAIN ")).findFirst().orElseThrow());
        List<String> tokens = List.of("filesystem_read", "filesystem_write", "network_egress", "name_resolution",
                "syscall", "process_creation", "ipc", "credential", "resource");
        for (int i = 0; i < 9; i++) {
            assertTrue(lines.get(header + 1 + i).startsWith("  " + tokens.get(i) + " "), lines.get(header + 1 + i));
        }
        String text = String.join("\n", lines).toLowerCase();
        assertFalse(text.contains("sandboxed"));
        assertFalse(text.contains("supported="));
        assertEquals("--- execution isolation ---", lines.get(0));
    }

    @Test
    void noBoundaryIsNeverReady() {
        String text = renderer.render(ReportFixtures.byName("no_boundary"));
        assertTrue(text.contains("\nposture: NO BOUNDARY ESTABLISHED\n"));
        assertFalse(text.contains("READY"));
    }

    @Test
    void environCaveatOnlyWhereCredentialIsNotPrevented() {
        assertFalse(renderer.render(ReportFixtures.byName("ready")).contains("/proc/<pid>/environ by anything"));
        assertTrue(renderer.render(ReportFixtures.byName("ambient")).contains("/proc/<pid>/environ by anything"));
    }

    @Test
    void controlCharactersInValuesCannotForgeLines() {
        IsolationReport base = ReportFixtures.byName("ready");
        IsolationReport hostile = new IsolationReport(base.schema(), base.stage(), base.posture(),
                Optional.of("fine\nposture: READY\u001b[2J\r\tend"), base.isolationClass(),
                new IdentityRef("agent\u0000x\u0085y\u2028z", Optional.empty(), List.of("a\nb")),
                new TargetSummary("/bin/e\u0007vil", 0), base.backend(), base.backendUnavailable(), base.selection(),
                "/p\n", base.requested(), base.domains(), base.refusals(), List.of("meta\u001b]0;x\u0007"),
                base.credentials(), base.descriptors(), base.authority(), base.outcome(), base.evidence());
        String text = renderer.render(hostile);
        assertTrue(text.contains("\nposture_detail: fine posture: READY [2J end\n"), text);
        assertTrue(text.contains("\nagent_id: agent x y z\n"));
        assertTrue(text.contains("\nlineage: a b\n"));
        assertTrue(text.contains("\ntarget: /bin/e vil (0 argument(s))\n"));
        assertEquals(1, text.lines().filter(l -> l.startsWith("posture: ")).count(), "no forged posture line");
        text.lines().forEach(l -> assertTrue(l.chars().noneMatch(Character::isISOControl), l));
    }

    @Test
    void everyRefusalAndEveryCandidateIsListed() {
        IsolationReport r = ReportFixtures.byName("refused");
        String text = renderer.render(r);
        r.refusals().forEach(e -> assertTrue(text.contains(": " + e.reason() + " — " + e.detail() + "\n"), e.reason()));
        r.selection().orElseThrow().considered().forEach(c -> assertTrue(
                text.contains("  considered: " + c.id() + " [" + c.verdict().token() + "] "), c.id()));
    }

    @Test
    void degradedShowsPlannedAndAchievedSeparately() {
        String text = renderer.render(ReportFixtures.byName("degraded"));
        assertTrue(text.contains("  network_egress: degraded — planned=prevent_before_effect, achieved=nothing,"
                + " reason=domain_unsupported — "));
        assertTrue(text.contains("achieved=observed(timing=post, descendants=process_tree), reason=decision_too_late"));
    }
}
