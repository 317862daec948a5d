package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite's hard-link control in a guest: with the workspace write-granted around a read-granted
 * out/, a hard link from the workspace into out/ is made on the host (the same inode) and read back; control,
 * out/ write-granted instead of the workspace: no link, no bytes.
 */
class HardLinkTest {
    @Test
    void aHardLinkInsideOneWriteGrantIsMadeOnTheHost(@TempDir Path tmp) throws Exception {
        Path ws = tmp.toRealPath();
        Path secret = Files.writeString(Files.createDirectories(ws.resolve("secret")).resolve("s"), "the secret\n");
        Path out = Files.createDirectories(ws.resolve("out"));
        String action = "ln " + secret + " " + out.resolve("hl") + " && cat " + out.resolve("hl") + " > "
                + out.resolve("loot");

        Guests.backend().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(out.toString()),
                Guests.write(out.toString()))));
        assertFalse(Files.exists(out.resolve("hl")), "linked without the workspace granted");
        assertFalse(Files.exists(out.resolve("loot")));

        // as the kernel hands the control over: the write grant of out/ folded into the workspace's
        Guests.backend().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(out.toString()),
                Guests.write(ws.toString()))));
        assertEquals("the secret\n", Files.readString(out.resolve("loot")));
        assertEquals(Files.getAttribute(secret, "unix:ino"), Files.getAttribute(out.resolve("hl"), "unix:ino"));
    }
}
