package io.aasm.support.canary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The line's grammar: anything but a well-formed line of this launch's nonce parses to nothing. */
class CanaryLineTest {
    private static final String N = "00ff00ff00ff00ff";

    @Test
    void whatFormatWritesParsesBack() {
        Map<CapabilityDomain, CanaryVerdict> v = Map.of(CapabilityDomain.RESOURCE, CanaryVerdict.denied(1),
                CapabilityDomain.NAME_RESOLUTION, CanaryVerdict.passed());
        String line = CanaryLine.format(N, v);
        assertEquals("nonce=" + N + " name_resolution=passed/0 resource=denied/1", line);
        assertEquals(Optional.of(v), CanaryLine.parse(line + "\n", N));
        assertEquals(Optional.of(Map.of()), CanaryLine.parse("nonce=" + N, N), "no canary asked: the nonce alone");
    }

    @Test
    void malformedLinesProveNothing() {
        for (String bad : new String[] {"nonce=" + N + " nosuchdomain=denied/13", "nonce=" + N + " ipc=denied",
                "nonce=" + N + " ipc=refused/1", "nonce=" + N + " ipc=denied/-1", "nonce=" + N + " ipc=denied/12345",
                "nonce=" + N + " ipc=denied/1 ipc=passed/0", "nonce=" + N.toUpperCase() + " ipc=denied/1",
                "ipc=denied/1"}) {
            assertEquals(Optional.empty(), CanaryLine.parse(bad, N), bad);
        }
        assertEquals(Optional.empty(), CanaryLine.parse("nonce= ipc=denied/1", ""), "an empty nonce matches nothing");
    }
}
