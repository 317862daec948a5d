package io.aasm.backend.landlockseccomp.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings;
import io.aasm.backend.landlockseccomp.internal.probe.CapabilityAssembler;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.Prerequisite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probes run through the real launcher, are cached per host, and gate every prevention claim. */
class CapabilityProbeTest {
    @TempDir
    Path cache;

    @Test
    void everyDomainIsProbedAndCachedOnThisHost() throws Exception {
        LandlockSeccompBackend b = new LandlockSeccompBackend(LandlockSeccompSettings.defaults().withProbeCacheDir(cache));
        BackendCapabilities caps = b.refreshCapabilities();
        StringBuilder summary = new StringBuilder();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            CapabilityReport r = caps.reportFor(d).orElseThrow();
            Prerequisite probe = r.prerequisites().stream()
                    .filter(p -> p.requirement().equals(CapabilityAssembler.PROBE_REQUIREMENT)).findFirst().orElseThrow();
            summary.append(d.token()).append(": canPrevent=").append(r.canPrevent()).append(" probe=")
                    .append(probe.status()).append('\n');
        }
        System.out.println(summary);
        try (Stream<Path> files = Files.list(cache)) {
            assertEquals(1, files.filter(p -> p.getFileName().toString().startsWith("aasm-native-")).count());
        }
        // A second backend reads the cache instead of probing again: same verdicts, same measurement time.
        BackendCapabilities again = new LandlockSeccompBackend(LandlockSeccompSettings.defaults().withProbeCacheDir(cache)).capabilities();
        assertEquals(caps.measuredAt(), again.measuredAt());
        assertEquals(caps.reports(), again.reports());
        for (CapabilityDomain d : CapabilityDomain.values()) {
            assertTrue(caps.reportFor(d).orElseThrow().canPrevent(), "this host should prevent " + d.token() + "\n" + summary);
        }
    }
}
