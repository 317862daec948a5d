package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.probe.VmCapabilities;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.Prerequisite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The probes run in real guests, are cached per host, and gate every prevention claim. */
class CapabilityProbeTest {
    @Test
    void everyDomainIsProbedInAGuestAndCached() throws Exception {
        QemuVmBackend b = Guests.backend();
        BackendCapabilities caps = b.refreshCapabilities();
        StringBuilder summary = new StringBuilder();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            CapabilityReport r = caps.reportFor(d).orElseThrow();
            Prerequisite probe = r.prerequisites().stream()
                    .filter(p -> p.requirement().equals(VmCapabilities.PROBE_REQUIREMENT)).findFirst().orElseThrow();
            summary.append(d.token()).append(": canPrevent=").append(r.canPrevent()).append(" probe=")
                    .append(probe.status()).append('\n');
        }
        System.out.println(summary);
        assertEquals(PlatformBoundary.SEPARATE_KERNEL, caps.platformBoundary());
        try (Stream<Path> files = Files.list(Guests.STATE.resolve("probes"))) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("aasm-qemu-vm-")), "no cache file");
        }
        // Another backend on the same state reads the cache instead of probing again.
        BackendCapabilities again = new QemuVmBackend(Guests.settings("tcg")).capabilities();
        assertEquals(caps.measuredAt(), again.measuredAt());
        assertEquals(caps.reports(), again.reports());
        for (CapabilityDomain d : CapabilityDomain.values()) {
            assertTrue(caps.reportFor(d).orElseThrow().canPrevent(), "this host should prevent " + d.token() + "\n"
                    + summary);
        }
    }
}
