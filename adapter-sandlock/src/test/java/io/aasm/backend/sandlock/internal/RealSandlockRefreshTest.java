package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.Prerequisite;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The teardown self-check through the real backend: a fresh activation reports the verdict an earlier one in this
 * boot observed, and says so; a refresh ({@code aasm probe}) observes it again in its own process.
 */
class RealSandlockRefreshTest {
    private static String teardown(BackendCapabilities c) {
        return c.reportFor(CapabilityDomain.RESOURCE).orElseThrow().prerequisites().stream()
                .filter(p -> p.requirement().contains("teardown")).map(Prerequisite::status).findFirst().orElseThrow()
                .toString();
    }

    @Test
    void aRefreshChecksTheTeardownAgainWhereActivationReusesIt() {
        SandlockBackend first = Fixtures.realOrCannotHost(Path.of("target"), Path.of("/sys"));
        try {
            teardown(first.capabilities()); // observed here, or already remembered by an earlier test of this build
        } finally {
            first.deactivate();
        }
        SandlockBackend later = Fixtures.realOrCannotHost(Path.of("target"), Path.of("/sys"));
        try {
            String remembered = teardown(later.capabilities());
            assertTrue(remembered.contains("killed") && remembered.contains("remembered per boot"),
                    "control: a later activation reuses the verdict and says so: " + remembered);
            String refreshed = teardown(later.refreshCapabilities());
            assertTrue(refreshed.contains("killed"), refreshed);
            assertFalse(refreshed.contains("remembered"), "a refresh observes it in this process: " + refreshed);
        } finally {
            later.deactivate();
        }
    }
}
