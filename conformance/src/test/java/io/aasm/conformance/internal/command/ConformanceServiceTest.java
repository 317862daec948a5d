package io.aasm.conformance.internal.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aasm.conformance.internal.Components;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The service names its columns and families, and refuses an unknown one before running anything. */
class ConformanceServiceTest {
    private final ConformanceService suite = new ConformanceService(Components.kernel(), Optional.empty());

    @Test
    void theColumnsAreNoneAndTheInstalledBackends() {
        assertEquals(List.of("none"), suite.backends());
        assertEquals(List.of("domains", "surroundings", "mediation"), suite.families());
    }

    @Test
    void anUnknownBackendOrFamilyRunsNothing() {
        List<String> progress = new ArrayList<>();
        assertEquals("unknown backend 'nope'; installed: none", assertThrows(IllegalArgumentException.class,
                () -> suite.run(Optional.of("nope"), Optional.empty(), progress::add)).getMessage());
        assertEquals("unknown family 'nope'; families: domains, surroundings, mediation", assertThrows(
                IllegalArgumentException.class, () -> suite.run(Optional.of("none"), Optional.of("nope"),
                        progress::add)).getMessage());
        assertEquals(List.of(), progress);
    }
}
