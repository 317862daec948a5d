package io.aasm.report.json.internal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class MachineGoldenTest {
    @ParameterizedTest
    @FieldSource("io.aasm.report.json.internal.Fixtures#NAMES")
    void kvMatchesGolden(String name) throws Exception {
        GoldenFiles.assertMatches(name + ".kv", new KvReportRenderer().render(Fixtures.byName(name)));
    }

    @ParameterizedTest
    @FieldSource("io.aasm.report.json.internal.Fixtures#NAMES")
    void jsonMatchesGolden(String name) throws Exception {
        GoldenFiles.assertMatches(name + ".json", new JsonReportRenderer().render(Fixtures.byName(name)));
    }
}
