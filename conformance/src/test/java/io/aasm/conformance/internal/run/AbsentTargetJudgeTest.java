package io.aasm.conformance.internal.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.conformance.internal.catalogue.Effect;
import io.aasm.conformance.internal.catalogue.Staged;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.report.ReportStage;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The absent-in-a-separate-kernel rule: a host-only target whose control had no effect counts as prevented only
 * with a separate kernel, a declared host-only target, the probe seeing it absent under the backend and present
 * on the host. Each test removes one of the four; the first keeps all and is the control of the others.
 */
class AbsentTargetJudgeTest {
    private static final Staged HOST_ONLY = JudgeTest.staged(Optional.empty())
            .withHostOnlyTarget("the outside process 4242", "probe");
    private static final Trial HOSTILE = ran(Effect.absent("the outside process 4242 is alive"), "kill: EPERM");
    private static final Trial CONTROL = ran(Effect.absent("the outside process 4242 is alive"), "No such process");
    private static final Trial ABSENT = ran(Effect.absent("probe"), Staged.HostOnly.ABSENT);
    private static final Trial PRESENT = ran(Effect.absent("probe"), Staged.HostOnly.PRESENT);

    @Test
    void allFourHold() throws Exception {
        Verdict v = judge(HOST_ONLY, true, ABSENT, PRESENT);
        assertEquals(Outcome.PREVENTED_ABSENT_IN_SEPARATE_KERNEL, v.outcome(), v.detail());
        assertFalse(v.fails());
        assertTrue(v.detail().contains("does not exist in the backend's separate kernel"), v.detail());
    }

    @Test
    void aSharedKernelStaysInconclusive() throws Exception {
        Verdict v = judge(HOST_ONLY, false, ABSENT, PRESENT);
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, v.outcome());
        assertTrue(v.fails(), "inconclusive under a prevention claim fails");
    }

    @Test
    void aTargetNotDeclaredHostOnlyStaysInconclusive() throws Exception {
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, judge(JudgeTest.staged(Optional.empty()), true, ABSENT, PRESENT)
                .outcome());
    }

    @Test
    void aProbeThatDidNotObserveAbsenceStaysInconclusive() throws Exception {
        Trial unknown = ran(Effect.absent("probe"), "aasm-target-unknown: kill: Operation not permitted");
        Verdict v = judge(HOST_ONLY, true, unknown, PRESENT);
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, v.outcome());
        assertTrue(v.detail().contains("did not observe it absent"), v.detail());
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, judge(HOST_ONLY, true, new Trial.Refused("no"), PRESENT).outcome());
    }

    @Test
    void aProbeThatCannotSeeTheTargetOnTheHostProvesNothing() throws Exception {
        Verdict v = judge(HOST_ONLY, true, ABSENT, ABSENT);
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, v.outcome());
        assertTrue(v.detail().contains("did not observe it on the host"), v.detail());
    }

    private static Verdict judge(Staged staged, boolean separateKernel, Trial inside, Trial onHost) throws Exception {
        return Judge.judge(JudgeTest.SC, "x", staged, HOSTILE, () -> CONTROL, false, separateKernel,
                host -> host ? onHost : inside);
    }

    private static Trial ran(Effect effect, String diag) {
        return new Trial.Ran(Reports.confined(ReportStage.PRE_LAUNCH, Reports.prevention()),
                Reports.confined(ReportStage.POST_RUN, Reports.prevention()), new ExitDisposition.Exited(0), diag, effect);
    }
}
