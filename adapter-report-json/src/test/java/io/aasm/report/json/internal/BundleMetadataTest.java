package io.aasm.report.json.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.report.ReportFormatName;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The kernel finds renderers by service property; bnd generates it at process-classes, before tests. */
class BundleMetadataTest {
    private static final Path CLASSES = Path.of("target", "classes");

    @ParameterizedTest
    @CsvSource({"io.aasm.report.json.internal.KvReportRenderer,kv", "io.aasm.report.json.internal.JsonReportRenderer,json"})
    void rendererIsRegisteredUnderItsFormatName(String component, String format) throws Exception {
        String xml = Files.readString(CLASSES.resolve("OSGI-INF/" + component + ".xml"));
        assertTrue(xml.contains("<provide interface=\"io.aasm.ports.report.ReportRenderer\"/>"), xml);
        assertTrue(xml.contains("<property name=\"" + ReportFormatName.NAME + "\" type=\"String\" value=\"" + format
                + "\"/>"), xml);
        String manifest = Files.readString(CLASSES.resolve("META-INF/MANIFEST.MF"));
        assertFalse(manifest.contains("Export-Package"), manifest);
        assertTrue(Files.exists(CLASSES.resolve("io/aasm/report/json/internal/"
                + JsonReportRenderer.SCHEMA_RESOURCE)), "schema is bundled");
    }
}
