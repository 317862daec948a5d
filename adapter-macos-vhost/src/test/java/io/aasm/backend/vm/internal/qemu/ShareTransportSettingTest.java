package io.aasm.backend.vm.internal.qemu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.ShareTransport;
import io.aasm.backend.vm.internal.runtime.VmSettings;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The share transport as configuration, without a guest: a name other than 9p or virtiofs is refused by name,
 * 9p is the default, and virtiofs for a caller that is not root makes the backend unavailable with the reason
 * (control: the same settings with 9p are not refused for it).
 */
class ShareTransportSettingTest {
    @Test
    void onlyTheTwoTransportsAreNamesAndNinePIsTheDefault(@TempDir Path dir) {
        assertEquals(ShareTransport.NINE_P, ShareTransport.parse("9p"));
        assertEquals(ShareTransport.VIRTIOFS, ShareTransport.parse("virtiofs"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShareTransport.parse("nfs"));
        assertEquals("share transport must be 9p or virtiofs, got 'nfs'", e.getMessage());
        assertEquals(ShareTransport.NINE_P, settings(dir, 0).shares());
    }

    @Test
    void virtiofsNeedsRoot(@TempDir Path dir) throws Exception {
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
        try (Spawner spawner = new Spawner(Path.of("/usr/bin/setpriv"), false)) {
            Optional<String> why = new QemuHypervisor(settings(dir, 65534).withShares(ShareTransport.VIRTIOFS), spawner,
                    timers).unavailable();
            assertTrue(why.isPresent() && why.get().contains("virtiofs shares need"), why.toString());
            // control: 9p for the same caller is not refused for the transport (whatever else this host lacks)
            Optional<String> nine = new QemuHypervisor(settings(dir, 65534), spawner, timers).unavailable();
            assertFalse(nine.isPresent() && nine.get().contains("virtiofs"), nine.toString());
        } finally {
            timers.shutdownNow();
        }
    }

    private static QemuSettings settings(Path dir, int uid) {
        VmSettings vm = new VmSettings(dir, dir.resolve("probes"), dir, 512, 1, 12, 1000, 1000, uid, uid);
        return new QemuSettings(vm, Optional.empty(), "tcg", Optional.of(dir.resolve("no-image")), Path.of("/boot"),
                Path.of("/lib/modules"), Path.of("/usr/bin/setpriv"));
    }
}
