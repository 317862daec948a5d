package io.aasm.report.json.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Exact comparison with a committed golden file; {@code -Daasm.golden.update=true} rewrites the
 * golden instead (then review the diff and commit it).
 */
final class GoldenFiles {
    static final Path DIR = Path.of("src", "test", "resources", "golden");

    private GoldenFiles() {
    }

    static boolean updating() {
        return Boolean.getBoolean("aasm.golden.update");
    }

    static void assertMatches(String fileName, String actual) throws IOException {
        Path golden = DIR.resolve(fileName);
        if (updating()) {
            Files.createDirectories(DIR);
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.exists(golden)) {
            fail("no golden file " + golden.toAbsolutePath() + "; run with -Daasm.golden.update=true to create it");
        }
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), actual,
                "output differs from " + golden + " (regenerate with -Daasm.golden.update=true if intended)");
    }
}
