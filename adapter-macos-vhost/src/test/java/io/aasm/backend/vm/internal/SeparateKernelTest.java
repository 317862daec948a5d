package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.image.GuestImage;
import io.aasm.ports.backend.ExitDisposition;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only a separate kernel passes: with /proc granted, the host's processes, their environment and the
 * host's sockets do not exist in the guest's procfs, and the kernel answering is the guest image's. The
 * control of each is the very same action by a grandchild on the host, where all of it is visible.
 */
class SeparateKernelTest {
    private static final String MARKER = "AASM_HOST_ONLY_MARKER=vm-separate-kernel";

    @Test
    void theHostsProcessesSocketsAndKernelDoNotExistInTheGuest(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        ProcessBuilder pb = new ProcessBuilder("sleep", "120");
        pb.environment().put("AASM_HOST_ONLY_MARKER", "vm-separate-kernel");
        Process hostProcess = pb.start();
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
            String portHex = ":" + String.format(Locale.ROOT, "%04X", port) + " ";
            String action = "cat /proc/" + hostProcess.pid() + "/environ > " + out.resolve("env") + "; cat /proc/net/tcp"
                    + " /proc/net/tcp6 > " + out.resolve("tcp") + "; uname -r > " + out.resolve("release");

            ExitDisposition d = Guests.backend().runDirect(Guests.grandchild(action, out, Map.of(), List.of(
                    Guests.read("/proc"), Guests.write(out.toString()))));
            assertEquals(new ExitDisposition.Exited(0), d);
            String guestRelease = Files.readString(out.resolve("release")).trim();
            assertFalse(read(out.resolve("env")).contains(MARKER), "the host process's environment was readable");
            assertTrue(Files.exists(out.resolve("tcp")), "the guest's own /proc/net/tcp was not readable");
            assertFalse(read(out.resolve("tcp")).contains(portHex), "the host's listener showed in the guest");

            // control: the same action by a grandchild on the host sees all three
            Process host = new ProcessBuilder("/bin/sh", "-c", "/bin/sh -c '" + action + "; :'; :").start();
            assertTrue(host.waitFor(30, TimeUnit.SECONDS));
            assertTrue(read(out.resolve("env")).contains(MARKER), "control: the host process's environment");
            assertTrue(read(out.resolve("tcp")).contains(portHex), "control: the host's listener " + portHex);
            String hostRelease = Files.readString(out.resolve("release")).trim();
            assertNotEquals(hostRelease, guestRelease, "the guest answered with the host's kernel");
            assertEquals(GuestImage.load(Guests.IMAGE).orElseThrow().release(), guestRelease);
        } finally {
            hostProcess.destroyForcibly();
        }
    }

    private static String read(Path p) throws java.io.IOException {
        return Files.exists(p) ? new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1) : "";
    }
}
