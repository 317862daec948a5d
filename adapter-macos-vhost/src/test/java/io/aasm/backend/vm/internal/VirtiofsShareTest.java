package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.ShareTransport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The QEMU driver with virtiofs shares (a virtiofsd per share, the transport Virtualization.framework has), in a
 * real guest, judged on the host, each claim a pair that differs by one grant: a read-only share stays byte for
 * byte, also when the guest itself mounts it writable and runs without Landlock (only the host's read-only bind
 * under virtiofsd is left), and a host path outside the shares does not exist in the guest.
 */
class VirtiofsShareTest {
    private static QemuVmBackend backend;

    static synchronized QemuVmBackend virtiofs() {
        Guests.backend(); // the same image and QEMU checks
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/lib/qemu/virtiofsd"))
                || Files.isExecutable(Path.of("/usr/libexec/virtiofsd")), "environment cannot host this check: no "
                + "virtiofsd (apt-get install qemu-system-common)");
        if (backend == null) {
            backend = new QemuVmBackend(Guests.settings("tcg").withShares(ShareTransport.VIRTIOFS));
        }
        return backend;
    }

    @Test
    void aReadOnlyShareWrittenFromTheGuestStaysByteForByte(@TempDir Path dir) throws Exception {
        Path shared = Files.createDirectories(dir.resolve("shared"));
        byte[] original = {'o', 'r', 'i', 'g', 0, (byte) 0xff, '\n'};
        Path file = Files.write(shared.resolve("f"), original);
        Path out = Files.createDirectories(dir.resolve("out"));
        String action = "echo changed > " + file + "; echo changed >> " + file + "; touch " + shared.resolve("new");

        virtiofs().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString()))));
        assertArrayEquals(original, file);
        assertFalse(Files.exists(shared.resolve("new")), "a file was created in the read-only share");

        // control: the same action with the folder granted for writing too
        virtiofs().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString(), shared.toString()))));
        assertEquals("changed\nchanged\n", Files.readString(file));
        assertTrue(Files.exists(shared.resolve("new")));
    }

    @Test
    void theHostKeepsAShareReadOnlyThatTheGuestMountsWritable(@TempDir Path dir) throws Exception {
        Path shared = Files.createDirectories(dir.resolve("shared"));
        byte[] original = "original\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Path file = Files.write(shared.resolve("f"), original);
        Path out = Files.createDirectories(dir.resolve("out"));
        String action = "echo changed > " + file + "; touch " + shared.resolve("new") + "; rm -f " + file
                + "; echo done > " + out.resolve("ran");

        // the guest mounts every share and bind read-write and applies no Landlock: virtiofsd's read-only view is all
        virtiofs().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString()))), MacosVmStandInTest::guestLayersOff);
        assertEquals("done\n", Files.readString(out.resolve("ran")), "the action did not run");
        assertArrayEquals(original, file);
        assertFalse(Files.exists(shared.resolve("new")), "the host let a file be created in a read-only share");

        // control: the folder granted for writing, the same guest without its layers
        Files.delete(out.resolve("ran"));
        virtiofs().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString(), shared.toString()))), MacosVmStandInTest::guestLayersOff);
        assertEquals("done\n", Files.readString(out.resolve("ran")));
        assertFalse(Files.exists(file), "the writable share's delete did not reach the host");
        assertTrue(Files.exists(shared.resolve("new")));
    }

    @Test
    void aHostPathOutsideTheSharesIsAbsent(@TempDir Path dir) throws Exception {
        Path secret = Files.createDirectories(dir.resolve("secret"));
        Files.writeString(secret.resolve("s"), "host only");
        Path out = Files.createDirectories(dir.resolve("out"));
        Path seen = out.resolve("seen");
        String action = "if test -e " + secret.resolve("s") + "; then echo present; else echo absent; fi > " + seen;

        // without Landlock in the guest: absence is the shares', not a denial
        virtiofs().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(),
                Guests.write(out.toString()))), MacosVmStandInTest::guestLayersOff);
        assertEquals("absent\n", Files.readString(seen));

        // control: the folder granted for reading
        virtiofs().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(secret.toString()),
                Guests.write(out.toString()))), MacosVmStandInTest::guestLayersOff);
        assertEquals("present\n", Files.readString(seen));
    }

    private static void assertArrayEquals(byte[] expected, Path file) throws java.io.IOException {
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, Files.readAllBytes(file),
                "the read-only share's file changed on the host");
    }
}
