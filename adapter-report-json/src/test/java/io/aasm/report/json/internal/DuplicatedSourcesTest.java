package io.aasm.report.json.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Adapters may not depend on each other, so the few shared helpers and the test fixtures are
 * copied between the text and the machine-report modules. This keeps the copies from drifting:
 * every format must render the same fixture data with the same scope and state wording.
 */
class DuplicatedSourcesTest {
    private static final Path TEXT = Path.of("..", "adapter-report-text", "src");
    private static final Path JSON = Path.of("src");
    private static final String PKG = "io/aasm/report/%s/internal/";

    @ParameterizedTest
    @ValueSource(strings = {"main/java/%sDescribe.java", "main/java/%sSanitizer.java",
        "test/java/%sFixtures.java", "test/java/%sGoldenFiles.java", "test/java/%sSanitizerTest.java"})
    void copiesAreIdenticalBarThePackage(String file) throws Exception {
        String text = Files.readString(TEXT.resolve(file.formatted(PKG.formatted("text"))));
        String json = Files.readString(JSON.resolve(file.formatted(PKG.formatted("json"))));
        assertEquals(text.replace("io.aasm.report.text.internal", "io.aasm.report.json.internal"), json,
                file + " differs between adapter-report-text and adapter-report-json; copy the change across");
    }
}
