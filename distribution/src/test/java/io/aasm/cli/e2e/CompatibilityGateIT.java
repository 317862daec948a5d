package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The compatibility gate (issue 20, docs/compatibility.md): {@code compat/run --gate} runs a fixed subset of
 * CPython 3.11's own regression tests unconfined, then under compat/policy.yaml through the built bin/aasm on
 * aasm-native, cold and through a resident kernel of its own. The confined failures must equal the unconfined
 * ones but for compat/expected-differences.txt, each listed with the denying domain. The unconfined run is the
 * control of every confined one: same tests, environment values, working-directory layout, command line.
 */
class CompatibilityGateIT {
    private static final Path COMPAT_RUN = Path.of("../compat/run").toAbsolutePath().normalize();
    private static final int CANNOT_HOST = 3;

    @Test
    void confinedFailuresEqualTheUnconfinedOnesButForTheExpectedDifferences() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/usr/lib/python3.11/test/libregrtest"))
                        && Files.isExecutable(Path.of("/usr/bin/python3.11")),
                "environment cannot host this check: no CPython 3.11 test suite (install the Debian package "
                        + "libpython3.11-testsuite; .ci/run does)");
        Path cwd = Aasm.outsideTmp("compat-gate");
        Path out = cwd.resolve("results");
        Process p = Aasm.startCommand(List.of(COMPAT_RUN.toString(), "--gate", "--aasm-home",
                Aasm.DIST.toAbsolutePath().toString(), "--out", out.toString()), cwd, Map.of());
        if (!p.waitFor(900, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("compat/run --gate did not finish within 15 minutes; partial results in " + out);
        }
        Aasm.Result r = Aasm.result(p, cwd);
        Assumptions.assumeFalse(r.exit() == CANNOT_HOST, () -> r.err().strip());
        assertEquals(0, r.exit(), () -> differences(out) + "\n" + r);
    }

    /** The differing test ids, mode by mode, from the harness's results.json (or why there are none). */
    private static String differences(Path out) {
        Path results = out.resolve("results.json");
        if (!Files.exists(results)) {
            return "no results.json: the gate did not get to compare (see the output below)";
        }
        List<String> lines = new ArrayList<>(List.of("the confined failures differ from the unconfined ones:"));
        try {
            for (JsonNode c : new ObjectMapper().readTree(results.toFile()).get("comparisons")) {
                String mode = c.get("mode").asText();
                c.get("unexplained").forEach(t -> lines.add("  " + mode + ": fails only confined: " + t.asText()));
                c.get("only_unconfined").forEach(t -> lines.add("  " + mode + ": fails only unconfined: " + t.asText()));
            }
        } catch (java.io.IOException e) {
            lines.add("  results.json unreadable: " + e);
        }
        return String.join("\n", lines);
    }
}
