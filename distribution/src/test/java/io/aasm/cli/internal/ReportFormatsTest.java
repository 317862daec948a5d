package io.aasm.cli.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aasm.ports.report.ReportFormatName;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Naming the {@code --report} choices never activates a renderer that registered its format name; one
 * without the property is asked (the control), and a binding goes away by the key it came with.
 */
class ReportFormatsTest {

    @Test
    void aNamedRendererIsListedWithoutBeingAsked() {
        ReportFormats formats = new ReportFormats();
        AtomicInteger asked = new AtomicInteger();
        Object json = new Object();
        Object unnamed = new Object();
        formats.bind(json, Map.of(ReportFormatName.NAME, "json"), () -> {
            asked.incrementAndGet();
            return "json";
        });
        assertEquals(0, asked.get(), "the property named it");
        formats.bind(unnamed, Map.of(), () -> {
            asked.incrementAndGet();
            return "custom";
        });
        assertEquals(1, asked.get(), "no property: asked once");
        assertEquals(List.of("custom", "json"), formats.names());
        formats.unbind(json);
        assertEquals(List.of("custom"), formats.names());
    }
}
