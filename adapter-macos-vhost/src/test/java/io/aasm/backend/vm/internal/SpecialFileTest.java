package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limitation the filesystem_write row names: a FIFO cannot be made in a read-write share, because QEMU's 9p
 * server (security model none) refuses to open a special file it just made and removes it (ENXIO); the guest's
 * /dev/shm is a tmpfs of the guest's own, where it can. The share itself keeps its meaning: what a program
 * writes there is a plain file of the caller on the host.
 */
class SpecialFileTest {
    @Test
    void aFifoInAShareIsRefusedWhileTheGuestsShmHoldsOne(@TempDir Path dir) throws Exception {
        QemuVmBackend b = Guests.backend();
        Path out = Files.createDirectories(dir.resolve("out"));
        String action = "mkfifo " + out.resolve("gate") + " 2> " + out.resolve("share.err") + "; echo $? > "
                + out.resolve("share.rc") + "; mkfifo /dev/shm/gate && [ -p /dev/shm/gate ] && echo fifo > "
                + out.resolve("shm");
        b.runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(), Guests.write(out.toString()))));
        assertEquals("fifo\n", Files.readString(out.resolve("shm")), "control: the guest's /dev/shm holds a FIFO");
        assertFalse(Files.exists(out.resolve("gate"), LinkOption.NOFOLLOW_LINKS), "nothing left on the host");
        assertTrue(Files.readString(out.resolve("share.err")).contains("No such device or address"),
                Files.readString(out.resolve("share.err")));
        assertEquals("1\n", Files.readString(out.resolve("share.rc")));
        Path written = out.resolve("shm");
        assertTrue(Files.isRegularFile(written, LinkOption.NOFOLLOW_LINKS), "a plain file on the host");
        assertEquals(Files.getOwner(dir), Files.getOwner(written), "owned by the caller");
    }
}
