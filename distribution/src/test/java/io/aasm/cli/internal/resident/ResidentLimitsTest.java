package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ResidentLimitsTest {
    @Test
    void absentPropertiesKeepTheDocumentedDefaults() {
        ResidentLimits l = ResidentLimits.from(name -> null);
        assertEquals(ResidentLimits.DEFAULTS, l);
        assertEquals(64, l.maxConnections());
        assertEquals(128, l.maxConnectionThreads());
    }

    @Test
    void eachPropertyIsReadByItsName() {
        Map<String, String> p = Map.of("aasm.resident.max.connections", "4", "aasm.resident.max.launches", " 2 ",
                "aasm.resident.launch.queue", "0", "aasm.resident.max.args", "100");
        ResidentLimits l = ResidentLimits.from(p::get);
        assertEquals(4, l.maxConnections());
        assertEquals(2, l.maxLaunches());
        assertEquals(0, l.launchQueue());
        assertEquals(100, l.maxArgs());
        assertEquals(ResidentLimits.DEFAULTS.requestTimeoutMs(), l.requestTimeoutMs());
    }

    @Test
    void aBadValueStopsTheKernelNamingEveryBadProperty() {
        Map<String, String> p = Map.of("aasm.resident.max.connections", "0", "aasm.resident.request.timeout.ms", "10s",
                "aasm.resident.max.args", "99999999999");
        String msg = assertThrows(IllegalArgumentException.class, () -> ResidentLimits.from(p::get)).getMessage();
        assertTrue(msg.contains("aasm.resident.max.connections=0"), msg);
        assertTrue(msg.contains("aasm.resident.request.timeout.ms=10s"), msg);
        assertTrue(msg.contains("aasm.resident.max.args=99999999999"), msg);
    }
}
