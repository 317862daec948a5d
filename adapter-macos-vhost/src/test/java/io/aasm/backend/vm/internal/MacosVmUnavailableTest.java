package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.vz.VzSettings;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.PlatformBoundary;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Off macOS, {@code aasm-macos-vm} is unavailable with that reason and claims nothing, whatever helper is
 * configured; only the test switch (no configuration key) lets its Java side run against the stand-in.
 * Starts no guest.
 */
class MacosVmUnavailableTest {
    @Test
    void offMacosTheBackendIsUnavailableWithItsReasonAndNoCapability() {
        Assumptions.assumeFalse(VzSettings.onMacos(), "this check is about a host that is not macOS");
        MacosVmBackend b = new MacosVmBackend(StandIn.settings(Optional.empty(), Optional.empty(), true));
        String why = b.unavailable().orElseThrow();
        assertTrue(why.contains("only on macOS") && why.contains("[not_macos]"), why);
        BackendCapabilities caps = b.capabilities();
        assertFalse(caps.available());
        assertTrue(caps.reports().isEmpty(), "an unavailable backend reported a domain: " + caps.reports());
        assertEquals(PlatformBoundary.SEPARATE_KERNEL, caps.platformBoundary());
        assertEquals(MacosVmBackend.ID, b.identity().id());
        BackendCapabilities planned = b.plan(new ExecutionSpec("/bin/true", List.of(), "/", IdentityRef.anonymous(),
                List.of(Guests.read()), Map.of(), CredentialPosture.none(), new Stdio.Inherit())).capabilities();
        assertFalse(planned.available());
        assertTrue(planned.reports().isEmpty());
    }

    @Test
    void aPinnedStandInDoesNotMakeItAvailableOffMacos(@TempDir Path dir) throws Exception {
        Assumptions.assumeFalse(VzSettings.onMacos(), "this check is about a host that is not macOS");
        Path helper = StandIn.install(dir, "normal");
        String pin = StandIn.sha256(helper);
        MacosVmBackend b = new MacosVmBackend(StandIn.settings(Optional.of(helper), Optional.of(pin), true));
        assertTrue(b.unavailable().orElseThrow().contains("[not_macos]"), b.unavailable().toString());
        assertFalse(b.capabilities().available());

        // control: the test switch alone differs, and the same helper and pin are accepted
        MacosVmBackend s = StandIn.backend(helper, pin);
        assertEquals(Optional.empty(), s.unavailable());
    }

    @Test
    void withTheSwitchOffButNoHelperConfiguredTheReasonNamesTheMissingHelper() {
        MacosVmBackend b = new MacosVmBackend(StandIn.settings(Optional.empty(), Optional.empty(), false));
        assertTrue(b.unavailable().orElseThrow().contains("no aasm-vz helper is configured"), b.unavailable().toString());
        assertFalse(b.capabilities().available());
    }

    /**
     * The helper boots guests of the host's own architecture: an image of another one (here the arm64 image on this
     * x86_64 host) makes the backend unavailable with that reason. Control: the host's own image, same helper.
     */
    @Test
    void anImageOfAnotherArchitectureIsRefused(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue("amd64".equals(System.getProperty("os.arch")), "the arm64 image is the foreign one on x86_64 only");
        Path arm64 = Path.of(System.getProperty("aasm.vm.arm64.image.dir", "target/guest-image-arm64"));
        assertTrue(io.aasm.backend.vm.internal.image.GuestImage.load(arm64).isPresent(), "no arm64 guest image in "
                + arm64 + ": the build's \"[aasm-vm] arm64 guest image not built\" line says why");
        Path helper = StandIn.install(dir, "normal");
        String pin = StandIn.sha256(helper);
        VzSettings own = StandIn.settings(Optional.of(helper), Optional.of(pin), false);
        VzSettings foreign = new VzSettings(own.vm(), own.helper(), own.helperSha256(), Optional.of(arm64.toAbsolutePath()),
                false);
        String why = new MacosVmBackend(foreign).unavailable().orElseThrow();
        assertTrue(why.contains("is for aarch64") && why.contains("(x86_64)"), why);
        assertEquals(Optional.empty(), StandIn.backend(helper, pin).unavailable());
    }
}
