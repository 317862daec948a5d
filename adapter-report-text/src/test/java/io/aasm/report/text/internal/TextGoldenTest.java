package io.aasm.report.text.internal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class TextGoldenTest {
    private final TextReportRenderer renderer = new TextReportRenderer();

    @ParameterizedTest
    @FieldSource("io.aasm.report.text.internal.Fixtures#NAMES")
    void rendersGolden(String name) throws Exception {
        GoldenFiles.assertMatches(name + ".txt", renderer.render(Fixtures.byName(name)));
    }
}
