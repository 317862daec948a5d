package io.aasm.backend.sandlock.internal.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.sandlock.internal.guard.GuardReport;
import io.aasm.backend.sandlock.internal.guard.GuardReportParsing;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.evidence.DescriptorInventory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * From the guard's lines to the program's end. The line shapes are the ones sandlock 0.8.6 and the
 * guard were observed to write (RealSandlockSupervisionTest checks them end to end).
 */
class ExitMappingTest {
    private static ExitMapping.Mapped map(ExitMapping.Requested req, String... lines) {
        return ExitMapping.map(GuardReportParsing.of(0, lines), req);
    }

    private static ExitDisposition d(String... lines) {
        return map(ExitMapping.Requested.NONE, lines).disposition();
    }

    @Test
    void statusLineDecidesNotSandlocksExitCode() {
        assertEquals(new ExitDisposition.Exited(3), d("started:9", "status:{\"exit_code\":3}", "exit:code:3"));
        assertEquals(new ExitDisposition.Exited(1), d("status:{\"exit_code\":1}", "exit:code:1"));
        assertEquals(new ExitDisposition.Signalled(15), d("status:{\"exit_code\":-1,\"signal\":15}", "exit:code:1"));
        ExitMapping.Mapped kill = map(ExitMapping.Requested.NONE, "status:{\"exit_code\":-1}", "exit:code:1");
        assertEquals(new ExitDisposition.Signalled(9), kill.disposition());
        assertTrue(kill.account().contains("without a signal number"));
    }

    @Test
    void theLastStatusLineIsSandlocksOwn() {
        ExitMapping.Mapped m = map(ExitMapping.Requested.NONE, "status:{\"exit_code\":0}",
                "status:{\"exit_code\":-1,\"signal\":6}", "exit:code:1");
        assertEquals(new ExitDisposition.Signalled(6), m.disposition());
        assertTrue(m.account().contains("2 status lines"));
    }

    @Test
    void noStatusLineMeansSandlockFailedBeforeTheProgramStatus() {
        ExitDisposition.NotStarted n = assertInstanceOf(ExitDisposition.NotStarted.class, d("started:9",
                "exit:code:1"));
        assertEquals(LaunchFailureKind.BACKEND_ERROR, n.kind());
        assertEquals(new ExitDisposition.Signalled(9), map(ExitMapping.Requested.KILL, "exit:signal:9").disposition());
    }

    @Test
    void aFiredCeilingIsASigkillWhateverSandlockSaid() {
        assertEquals(new ExitDisposition.Signalled(9), map(ExitMapping.Requested.DEADLINE, "status:{\"exit_code\":0}",
                "exit:code:0").disposition());
    }

    @Test
    void refusalsAndALostGuard() {
        assertEquals(125, d("refused:exec:2").shellStatus());
        ExitMapping.Mapped lost = ExitMapping.map(GuardReportParsing.of(137, "started:9"),
                ExitMapping.Requested.NONE);
        assertEquals(new ExitDisposition.Signalled(9), lost.disposition());
        assertTrue(lost.account().contains("without a report"));
        ExitDisposition.NotStarted never = assertInstanceOf(ExitDisposition.NotStarted.class, ExitMapping.map(
                GuardReportParsing.of(121), ExitMapping.Requested.NONE).disposition());
        assertTrue(never.detail().contains("before it started sandlock"));
    }

    @Test
    void inventoryLineIsParsed() {
        GuardReport r = GuardReportParsing.of(0, "fds:kept=0,1,2;sealed=4,7;residual=9/13;complete=1");
        assertEquals(new DescriptorInventory(true, List.of(0, 1, 2), List.of(4, 7), List.of("9/13")),
                r.inventory().orElseThrow());
        assertEquals(new DescriptorInventory(true, List.of(0, 1, 2), List.of(), List.of()), GuardReportParsing.of(0,
                "fds:kept=0,1,2;sealed=;residual=;complete=1").inventory().orElseThrow());
    }
}
