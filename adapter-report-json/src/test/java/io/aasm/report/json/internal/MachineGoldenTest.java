package io.aasm.report.json.internal;

import io.aasm.ports.report.fixtures.GoldenFiles;
import io.aasm.ports.report.fixtures.ReportFixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class MachineGoldenTest {
    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void kvMatchesGolden(String name) throws Exception {
        GoldenFiles.assertMatches(name + ".kv", new KvReportRenderer().render(ReportFixtures.byName(name)));
    }

    @ParameterizedTest
    @FieldSource("io.aasm.ports.report.fixtures.ReportFixtures#NAMES")
    void jsonMatchesGolden(String name) throws Exception {
        GoldenFiles.assertMatches(name + ".json", new JsonReportRenderer().render(ReportFixtures.byName(name)));
    }
}
