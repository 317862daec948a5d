package io.aasm.conformance.internal.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.conformance.internal.Components;
import org.junit.jupiter.api.Test;

/** The Gogo face parses and refuses bad input before running anything. */
class ConformanceCommandTest {
    private final ConformanceCommand command = new ConformanceCommand(Components.kernel());

    @Test
    void anUnknownOptionPrintsUsage() throws Exception {
        assertTrue(command.conformance("--backends", "x").startsWith("usage: aasm:conformance [--backend ID]"));
        assertTrue(command.conformance("--family", "x", "--family", "y").startsWith(ConformanceCommand.USAGE));
    }

    @Test
    void anUnknownBackendNamesTheInstalledOnes() throws Exception {
        String out = command.conformance("--backend", "nope");
        assertTrue(out.startsWith("unknown backend 'nope'; installed: none"), out);
    }

    @Test
    void anUnknownFamilyNamesTheFamilies() throws Exception {
        assertEquals("unknown family 'nope'; families: domains, surroundings, mediation",
                command.conformance("--family", "nope", "--backend", "none"));
    }
}
