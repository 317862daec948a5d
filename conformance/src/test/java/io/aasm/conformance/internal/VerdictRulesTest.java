package io.aasm.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.conformance.internal.run.Outcome;
import io.aasm.conformance.internal.run.ResultWriter;
import io.aasm.conformance.internal.run.SuiteResult;
import io.aasm.conformance.internal.run.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which cells fail the suite, and that results are written losslessly. */
class VerdictRulesTest {
    private static Verdict cell(Outcome o, boolean claims) {
        return new Verdict("s", "ipc", "b", o, "detail \"quoted\"\nnext", "prevention/unmeasured", claims);
    }

    @Test
    void inconclusiveControlFailsOnlyUnderAPreventionClaim() {
        assertTrue(cell(Outcome.INCONCLUSIVE_CONTROL, true).fails());
        assertFalse(cell(Outcome.INCONCLUSIVE_CONTROL, false).fails());
    }

    @Test
    void escapesUnderClaimsUntruthfulReportsAndSuiteDefectsFail() {
        assertTrue(cell(Outcome.ESCAPED_UNDER_CLAIMED_PREVENTION, true).fails());
        assertTrue(cell(Outcome.UNTRUTHFUL, false).fails());
        assertTrue(cell(Outcome.SUITE_DEFECT, false).fails());
    }

    @Test
    void cannotHostIsCountedButNeverFails() {
        assertFalse(cell(Outcome.CANNOT_HOST, false).fails());
        SuiteResult r = new SuiteResult(Instant.EPOCH, Duration.ZERO, "h", List.of("b"), List.of("s"),
                List.of(cell(Outcome.CANNOT_HOST, false)));
        assertEquals(1, r.counts("b").get(Outcome.CANNOT_HOST));
        assertTrue(r.passed());
        assertTrue(ResultWriter.markdown(r).contains("| b | 0 | 0 | 0 | 0 | 1 |"));
    }

    @Test
    void aRefusalBeforeLaunchIsShownUnderItsOwnNameAndNeverFails() {
        Verdict refused = new Verdict("s", "network_egress", "b", Outcome.REFUSED_BEFORE_LAUNCH, "refused", "-", false);
        assertFalse(refused.fails());
        SuiteResult r = new SuiteResult(Instant.EPOCH, Duration.ZERO, "h", List.of("b"), List.of("s"), List.of(refused));
        assertEquals(0, r.counts("b").get(Outcome.PREVENTED), "a refusal is not counted as prevented");
        assertTrue(ResultWriter.table(r).contains("| s | network_egress | refused-before-launch |"), ResultWriter.table(r));
        assertTrue(ResultWriter.markdown(r).contains("refused-before-launch |"));
    }

    @Test
    void jsonEscapesDetails() {
        SuiteResult r = new SuiteResult(Instant.EPOCH, Duration.ZERO, "h", List.of("b"), List.of("s"),
                List.of(cell(Outcome.ESCAPED_UNDER_CLAIMED_PREVENTION, true)));
        String json = ResultWriter.json(r);
        assertTrue(json.contains("\"detail\": \"detail \\\"quoted\\\"\\nnext\""), json);
        assertTrue(json.contains("\"passed\": false"));
        assertTrue(json.contains("\"outcome\": \"escaped-under-claimed-prevention\", \"fails\": true"));
    }
}
