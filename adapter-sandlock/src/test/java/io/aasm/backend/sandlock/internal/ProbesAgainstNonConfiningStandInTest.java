package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probes' own honesty: run through the test-only stand-in, which answers like sandlock but
 * confines nothing, no confinement domain may be reported as able to prevent. (This checks that a
 * binary which does not enforce is caught; it says nothing about what real sandlock enforces.)
 */
class ProbesAgainstNonConfiningStandInTest {
    @TempDir
    Path dir;

    @Test
    void aNonConfiningBinaryNeverEarnsAPreventionClaim() throws Exception {
        SandlockBackend b = new SandlockBackend(Fixtures.settings(Map.of("AA_SANDLOCK_BIN",
                Fixtures.standIn(dir).toString()), dir.resolve("cache"), Path.of("/sys"), false));
        try {
            BackendCapabilities c = b.capabilities();
            for (CapabilityDomain d : List.of(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.FILESYSTEM_WRITE,
                    CapabilityDomain.NETWORK_EGRESS, CapabilityDomain.SYSCALL, CapabilityDomain.PROCESS_CREATION,
                    CapabilityDomain.IPC, CapabilityDomain.RESOURCE)) {
                CapabilityReport r = c.reportFor(d).orElseThrow();
                assertFalse(r.canPrevent(), d.token() + " claimed prevention through a binary that confines nothing");
                assertInstanceOf(PrerequisiteStatus.Unsatisfied.class, r.prerequisites().get(0).status(),
                        d.token() + ": " + r.prerequisites());
            }
        } finally {
            b.deactivate();
        }
    }
}
