package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.probe.VmCapabilities;
import io.aasm.backend.vm.internal.qemu.QemuSettings;
import io.aasm.backend.vm.internal.runtime.VmSettings;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.Prerequisite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listing never boots a guest: with nothing cached it says "not yet measured" and claims nothing; with the
 * verdicts of this QEMU and image cached it shows them, still without a guest. The first use (plan) measures.
 */
class LazyMeasureTest {
    @TempDir
    Path dir;

    @Test
    void aListingReadsTheCacheOrSaysNotYetMeasuredAndBootsNothing() throws Exception {
        // First use on the shared state: plan() measures when nothing is cached under the current key.
        QemuVmBackend used = Guests.backend();
        used.plan(Guests.grandchild("true", Path.of("/"), Map.of(), List.of(Guests.read())));
        Path measured = used.probeCacheFile();
        assertTrue(Files.isRegularFile(measured), "the first use left no cache at " + measured);

        // A backend on a fresh state folder and an empty probe folder: nothing cached.
        Path state = dir.resolve("state");
        QemuVmBackend fresh = new QemuVmBackend(settings(state, 512));
        BackendCapabilities unmeasured = fresh.capabilities();
        assertTrue(unmeasured.available(), unmeasured.toString());
        assertTrue(unmeasured.measuredAt().isEmpty());
        for (CapabilityDomain d : CapabilityDomain.values()) {
            CapabilityReport r = unmeasured.reportFor(d).orElseThrow();
            assertFalse(r.canPrevent(), d.token() + " claims prevention unmeasured");
            assertTrue(probe(r).contains("not yet measured on this host: run `aasm probe --backend aasm-qemu-vm"
                    + " --refresh`"), probe(r));
        }
        assertNothingBooted(state);

        // Control: the verdicts of this QEMU and image, cached for the fresh backend, are read without a guest.
        Path copy = fresh.probeCacheFile();
        assertEquals(measured.getFileName(), copy.getFileName(), "same QEMU, image and shape: same key");
        Files.createDirectories(copy.getParent(), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        Files.copy(measured, copy);
        QemuVmBackend reader = new QemuVmBackend(settings(state, 512));
        BackendCapabilities cached = reader.capabilities();
        assertEquals(used.capabilities().reports(), cached.reports());
        assertTrue(cached.measuredAt().isPresent());
        assertNothingBooted(state);

        // Another VM shape is another key: the same file is not read for it.
        QemuVmBackend bigger = new QemuVmBackend(settings(state, 640));
        assertTrue(bigger.capabilities().measuredAt().isEmpty());
        assertFalse(bigger.probeCacheFile().equals(copy));

        // An edited verdict is not trusted: back to "not yet measured", with the reason.
        Files.writeString(copy, Files.readString(copy).replaceFirst("\"detail\":\"", "\"detail\":\"edited "));
        BackendCapabilities edited = new QemuVmBackend(settings(state, 512)).capabilities();
        assertTrue(edited.measuredAt().isEmpty(), edited.toString());
        assertTrue(probe(edited.reportFor(CapabilityDomain.FILESYSTEM_READ).orElseThrow())
                .contains("does not match its own digest"), edited.toString());
        assertNothingBooted(state);
    }

    private static void assertNothingBooted(Path state) throws Exception {
        // Every guest, template or launch, starts from a template saved in this folder.
        assertFalse(Files.exists(state.resolve("templates")), "a listing made a template in " + state);
    }

    private static String probe(CapabilityReport r) {
        return r.prerequisites().stream().filter(p -> p.requirement().equals(VmCapabilities.PROBE_REQUIREMENT))
                .map(Prerequisite::status).map(Object::toString).findFirst().orElse("<no probe prerequisite>");
    }

    private QemuSettings settings(Path state, int memoryMib) {
        QemuSettings base = Guests.settings("tcg");
        VmSettings v = base.vm();
        return new QemuSettings(new VmSettings(state, dir.resolve("probes"), v.scratchDir(), memoryMib, v.vcpus(),
                v.slots(), v.bootMillis(), v.answerMillis(), v.uid(), v.gid()), base.qemu(), base.accelerator(),
                base.imageDir(), base.bootDir(), base.modulesDir(), base.setpriv());
    }
}
