package io.aasm.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.conformance.internal.catalogue.Catalogue;
import io.aasm.conformance.internal.catalogue.Scenario;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Deleting a scenario turns CI red; adding one requires pinning its name. */
class ScenarioNamesPinnedTest {
    static final Path PINNED = Path.of("..", ".ci", "conformance-scenarios.txt");

    @Test
    void catalogueNamesEqualThePinnedList() throws IOException {
        List<String> pinned = Files.readAllLines(PINNED).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        Set<String> catalogue = new TreeSet<>(Catalogue.all().stream().map(Scenario::name).toList());
        Set<String> missing = new TreeSet<>(pinned);
        missing.removeAll(catalogue);
        Set<String> unpinned = new TreeSet<>(catalogue);
        unpinned.removeAll(pinned);
        assertTrue(missing.isEmpty(), "pinned scenarios missing from the catalogue: " + missing);
        assertTrue(unpinned.isEmpty(), "scenarios not pinned in " + PINNED + ": " + unpinned);
        assertEquals(pinned.size(), new TreeSet<>(pinned).size(), "the pinned list repeats a name");
    }

    @Test
    void atLeastFortyScenariosCoverAllNineDomains() {
        List<Scenario> all = Catalogue.all();
        assertTrue(all.size() >= 40, "only " + all.size() + " scenarios");
        Set<CapabilityDomain> covered = EnumSet.noneOf(CapabilityDomain.class);
        all.forEach(s -> covered.add(s.domain()));
        assertEquals(EnumSet.allOf(CapabilityDomain.class), covered);
    }
}
