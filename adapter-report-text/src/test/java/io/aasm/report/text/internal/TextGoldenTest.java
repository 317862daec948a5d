package io.aasm.report.text.internal;

import io.aasm.ports.report.fixtures.GoldenFiles;
import io.aasm.ports.report.fixtures.ReportFixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class TextGoldenTest {
    private final TextReportRenderer renderer = new TextReportRenderer();

    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void rendersGolden(String name) throws Exception {
        GoldenFiles.assertMatches(name + ".txt", renderer.render(ReportFixtures.byName(name)));
    }
}
