package io.aasm.report.text.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.report.ReportFormatName;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The kernel finds renderers by service property; bnd generates it at process-classes, before tests. */
class BundleMetadataTest {
    private static final Path CLASSES = Path.of("target", "classes");

    @Test
    void rendererIsRegisteredUnderItsFormatName() throws Exception {
        String xml = Files.readString(CLASSES.resolve("OSGI-INF/" + TextReportRenderer.class.getName() + ".xml"));
        assertTrue(xml.contains("<provide interface=\"io.aasm.ports.report.ReportRenderer\"/>"), xml);
        assertTrue(xml.contains("<property name=\"" + ReportFormatName.NAME + "\" type=\"String\" value=\"text\"/>"), xml);
    }

    @Test
    void bundleExportsNothing() throws Exception {
        String manifest = Files.readString(CLASSES.resolve("META-INF/MANIFEST.MF"));
        assertFalse(manifest.contains("Export-Package"), manifest);
        assertTrue(manifest.contains("Service-Component:"), manifest);
    }
}
