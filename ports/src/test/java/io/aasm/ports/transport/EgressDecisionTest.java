package io.aasm.ports.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EgressDecisionTest {
    @Test
    void theJsonLineEscapesWhateverTheProgramWrote() {
        EgressDecision d = new EgressDecision(Instant.parse("2026-01-02T03:04:05Z"), "L1", "http-connect",
                "ev\"il\\\n\u001b[31m\u2028.test", 443, Optional.empty(), EgressVerdict.DENIED, Optional.empty(),
                Optional.of("no grant"), 0, 0, 1_500_000);
        String json = d.toJsonLine();
        assertEquals("{\"time\":\"2026-01-02T03:04:05Z\",\"launch\":\"L1\",\"protocol\":\"http-connect\","
                + "\"destination\":\"ev\\\"il\\\\\\u000a\\u001b[31m\\u2028.test\",\"port\":443,\"resolved\":null,"
                + "\"verdict\":\"denied\",\"grant\":null,\"reason\":\"no grant\",\"bytes_up\":0,\"bytes_down\":0,"
                + "\"duration_ms\":1.500}", json);
        assertTrue(json.chars().noneMatch(c -> c < 0x20));
    }

    @Test
    void aLongDestinationIsCut() {
        EgressDecision d = new EgressDecision(Instant.now(), "L", "socks5", "a".repeat(1000), 1, Optional.empty(),
                EgressVerdict.DENIED, Optional.empty(), Optional.empty(), 0, 0, 0);
        assertEquals(EgressDecision.MAX_DESTINATION, d.destination().length());
    }
}
