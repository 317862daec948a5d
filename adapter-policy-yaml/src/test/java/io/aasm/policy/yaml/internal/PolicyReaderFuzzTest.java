package io.aasm.policy.yaml.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.aasm.ports.policy.PolicyLoad;
import io.aasm.ports.policy.PolicyProblem;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of the policy reader with Jazzer. Whatever bytes arrive, the reader answers
 * Loaded or Rejected, a rejection names at least one problem, every problem is placed in the named
 * origin, and no problem is the internal-error safety net (a reader bug caught, not a policy rejected).
 *
 * <p>Without {@code JAZZER_FUZZ} both methods replay the committed inputs under
 * {@code PolicyReaderFuzzTestInputs/} (and any finding saved there). With {@code JAZZER_FUZZ=1} the one
 * selected method fuzzes for its {@code maxDuration}: {@code mvn verify} runs the bounded budget (the
 * {@code fuzz} surefire execution of this module), docs/fuzzing.md gives the command for the long run.
 */
class PolicyReaderFuzzTest {
    private static final YamlPolicySource SOURCE = new YamlPolicySource();

    /** The budget {@code mvn verify} spends on every build. */
    @FuzzTest(maxDuration = "30s")
    void anyBytesAreLoadedOrRejected(byte[] input) {
        check(input);
    }

    /** The same property for a long run by command (see docs/fuzzing.md). */
    @FuzzTest(maxDuration = "2h")
    void longRun(byte[] input) {
        check(input);
    }

    private static void check(byte[] input) {
        PolicyLoad result = SOURCE.parse("fuzz", new String(input, StandardCharsets.UTF_8));
        assertNotNull(result);
        if (result instanceof PolicyLoad.Rejected r) {
            assertFalse(r.problems().isEmpty(), "a rejection names at least one problem");
            for (PolicyProblem p : r.problems()) {
                assertFalse(p.message().startsWith("internal error"), p.render());
                assertEquals("fuzz", p.where().file(), p.render());
                assertTrue(p.where().line() >= 0 && p.where().column() >= 0, p.render());
            }
        }
    }
}
