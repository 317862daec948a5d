package io.aasm.conformance.internal.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.conformance.internal.catalogue.Effect;
import io.aasm.conformance.internal.catalogue.Scenario;
import io.aasm.conformance.internal.catalogue.Staged;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The verdict rules on hand-built trials: claims are checked against effects, controls against claims. */
class JudgeTest {
    static final Scenario SC = new Scenario("ipc-x", CapabilityDomain.IPC, "s", b -> null);

    static Staged staged(Optional<String> signature) {
        return new Staged("a", "b", "ipc.allow += signal", "true", () -> Effect.absent(""), Staged.Chore.nothing(),
                Staged.Chore.nothing(), signature);
    }

    static Trial ran(ControlState ipc, Effect effect, String diag) {
        return new Trial.Ran(Reports.confined(ReportStage.PRE_LAUNCH, ipc), Reports.confined(ReportStage.POST_RUN, ipc),
                new ExitDisposition.Exited(0), diag, effect);
    }

    static Verdict judge(Trial hostile, Trial control, Optional<String> signature) throws Exception {
        return Judge.judge(SC, "x", staged(signature), hostile, () -> control);
    }

    @Test
    void whatTheActionRecordedCanProveTheReportUntruthful() throws Exception {
        Staged audited = staged(Optional.empty()).withAudit(post -> java.util.List.of("post_run: least_authority yes,"
                + " but the program's own status shows CapEff=1"));
        Trial hostile = ran(Reports.prevention(), Effect.absentAfterAction("recorded"), "");
        Verdict v = Judge.judge(SC, "x", audited, hostile, () -> null);
        assertEquals(Outcome.UNTRUTHFUL, v.outcome());
        assertTrue(v.detail().contains("least_authority yes"), v.detail());
        assertEquals(Outcome.PREVENTED, Judge.judge(SC, "x", staged(Optional.empty()), hostile, () -> null).outcome());
    }

    @Test
    void anEffectUnderAPreventionClaimFails() throws Exception {
        Verdict v = judge(ran(Reports.prevention(), Effect.happened("bytes"), ""), null, Optional.empty());
        assertEquals(Outcome.ESCAPED_UNDER_CLAIMED_PREVENTION, v.outcome());
        assertTrue(v.fails());
    }

    @Test
    void anEffectUnderATruthfulUnmeasuredIsUncovered() throws Exception {
        Verdict v = judge(ran(Reports.unmeasured(), Effect.happened("bytes"), ""), null, Optional.empty());
        assertEquals(Outcome.UNCOVERED_AND_TRUTHFUL, v.outcome());
        assertFalse(v.fails());
    }

    @Test
    void noEffectIsPreventedOnlyWhenTheControlHadIt() throws Exception {
        Trial hostile = ran(Reports.prevention(), Effect.absent("none"), "kill: Operation not permitted");
        assertEquals(Outcome.PREVENTED,
                judge(hostile, ran(Reports.prevention(), Effect.happened("killed"), ""), Optional.empty()).outcome());
        Verdict v = judge(hostile, ran(Reports.prevention(), Effect.absent("alive"), ""), Optional.empty());
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, v.outcome());
        assertTrue(v.fails(), "a claimed prevention its control cannot confirm fails");
        assertFalse(judge(hostile, new Trial.NotLaunched("refused"), Optional.empty()).outcome() == Outcome.PREVENTED);
    }

    @Test
    void aRefusedHostileLaunchIsRefusedBeforeLaunchNotPrevented() throws Exception {
        Verdict v = judge(new Trial.Refused("network_egress: domain_unsupported"), null, Optional.empty());
        assertEquals(Outcome.REFUSED_BEFORE_LAUNCH, v.outcome(), "the control is never run");
        assertFalse(v.fails());
        assertFalse(v.claimsPrevention());
        assertTrue(v.detail().contains("domain_unsupported") && v.detail().contains("no boundary"), v.detail());
        Trial hostile = ran(Reports.prevention(), Effect.absent("none"), "socket: errno=EPERM (x)");
        Verdict c = judge(hostile, new Trial.Refused("x"), Optional.empty());
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, c.outcome(), "a refused control proves nothing");
        assertTrue(c.fails() && c.detail().contains("refused before launch"), c.detail());
        Optional<String> sig = Optional.of("socket: errno=EPERM");
        Verdict attributed = Judge.judge(SC, "x", staged(sig), hostile, () -> new Trial.Refused("udp unsupported"), true);
        assertEquals(Outcome.PREVENTED, attributed.outcome(), "a grant the backend never gives cannot be what denied");
        assertTrue(attributed.detail().contains("refuses the control's grant"), attributed.detail());
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, Judge.judge(SC, "x", staged(sig), hostile,
                () -> new Trial.Refused("udp unsupported"), false).outcome(), "only with an escape under none");
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, Judge.judge(SC, "x", staged(sig), ran(Reports.prevention(),
                Effect.absent("none"), "sendto: errno=EPERM"), () -> new Trial.Refused("udp unsupported"), true)
                .outcome(), "only with the denial signature in the hostile run");
    }

    @Test
    void aDenialSignatureInBothRunsAttributesTheDenial() throws Exception {
        Optional<String> sig = Optional.of("ptrace attach: errno=EPERM");
        Trial hostile = ran(Reports.prevention(), Effect.absent("none"), "ptrace attach: errno=EPERM (x)");
        Trial denied = ran(Reports.prevention(), Effect.absent("none"), "ptrace attach: errno=EPERM (x)");
        assertEquals(Outcome.PREVENTED, Judge.judge(SC, "x", staged(sig), hostile, () -> denied, true).outcome());
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, Judge.judge(SC, "x", staged(sig), hostile, () -> denied, false)
                .outcome(), "without an escape under none the host itself may be what denies");
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, Judge.judge(SC, "x", staged(sig), hostile, () -> ran(
                Reports.prevention(), Effect.absent("none"), "peek: errno=ENOENT"), true).outcome(),
                "a broken action is never a denial");
    }

    /** A backend may refuse the same step by another mechanism; both runs must still show the same one. */
    @Test
    void anotherDenialSignatureAttributesTheDenialToo() throws Exception {
        Staged two = staged(Optional.of("RTNETLINK answers: Operation not permitted"))
                .withOtherDenials("Cannot talk to rtnetlink: Address family not supported by protocol");
        String virtualised = "Cannot talk to rtnetlink: Address family not supported by protocol";
        Trial hostile = ran(Reports.prevention(), Effect.absent("lo unchanged"), virtualised);
        Trial control = ran(Reports.prevention(), Effect.absent("lo unchanged"), virtualised);
        assertEquals(Outcome.PREVENTED, Judge.judge(SC, "x", two, hostile, () -> control, true).outcome());
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, Judge.judge(SC, "x", two, hostile, () -> ran(Reports.prevention(),
                Effect.absent("lo unchanged"), "RTNETLINK answers: Operation not permitted"), true).outcome(),
                "the hostile run and its control must show the same denial");
        assertEquals(Outcome.INCONCLUSIVE_CONTROL, Judge.judge(SC, "x", staged(Optional.of(
                "RTNETLINK answers: Operation not permitted")), hostile, () -> control, true).outcome(),
                "without the second signature the virtualised family is not recognised");
    }

    @Test
    void aReportThatContradictsTheLaunchIsUntruthful() throws Exception {
        Trial lies = new Trial.Ran(
                Reports.report(ReportStage.PRE_LAUNCH, Optional.empty(), ReportedPosture.NO_BOUNDARY,
                        Reports.prevention(), ClaimTerm.DENIED_BEFORE_EXECUTION),
                Reports.report(ReportStage.POST_RUN, Optional.empty(), ReportedPosture.NO_BOUNDARY,
                        Reports.prevention(), ClaimTerm.UNMEASURED),
                new ExitDisposition.Exited(0), "", Effect.absentAfterAction("x"));
        Verdict v = Judge.judge(SC, SuiteRunner.NONE, staged(Optional.empty()), lies, () -> null);
        assertEquals(Outcome.UNTRUTHFUL, v.outcome());
        assertTrue(v.detail().contains("an unconfined launch claims prevention for ipc"), v.detail());
        assertTrue(v.detail().contains("asserts coverage"), v.detail());
        Verdict wrongBackend = Judge.judge(SC, "y", staged(Optional.empty()),
                ran(Reports.prevention(), Effect.absentAfterAction("x"), ""), () -> null);
        assertEquals(Outcome.UNTRUTHFUL, wrongBackend.outcome());
    }
}
