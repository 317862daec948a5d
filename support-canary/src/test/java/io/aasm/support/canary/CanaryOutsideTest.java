package io.aasm.support.canary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The look from outside after a run, shared by sandlock's and the container's canaries: a file the write canary
 * made and a connection the egress canary made are each named, against the control where neither happened; the
 * answer is taken once; closing removes the launch's names and closes the listener.
 */
class CanaryOutsideTest {
    @TempDir
    Path dir;

    @Test
    void aFileTheWriteCanaryMadeIsNamedAndRemovedOnClose() throws Exception {
        Path f = dir.resolve("write-1");
        CanaryOutside o = new CanaryOutside(Optional.of(f), Optional.empty(), List.of());
        Files.writeString(f, "");
        assertEquals(Optional.of("filesystem_write: the canary created " + f), o.escaped());
        o.close();
        assertFalse(Files.exists(f), "made only through a broken boundary: seen, then removed");
    }

    @Test
    void aConnectionToTheListenerIsNamed() throws Exception {
        CanaryListener l = CanaryListener.open(port -> false).orElseThrow();
        try (CanaryOutside o = new CanaryOutside(Optional.of(dir.resolve("write-2")), Optional.of(l), List.of());
             SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", l.port()))) {
            awaitQueued(l.port());
            assertEquals(Optional.of("network_egress: the canary reached the supervisor's listener on 127.0.0.1:"
                    + l.port()), o.escaped());
        }
    }

    @Test
    void nothingMadeIsNoEscapeAndTheAnswerIsTakenOnce() throws Exception {
        Path f = dir.resolve("write-3");
        CanaryListener l = CanaryListener.open(port -> false).orElseThrow();
        try (CanaryOutside o = new CanaryOutside(Optional.of(f), Optional.of(l), List.of())) {
            assertEquals(Optional.empty(), o.escaped(), "control: neither a file nor a connection");
            Files.writeString(f, "");
            assertEquals(Optional.empty(), o.escaped(), "after the run's look, later readers get the same answer");
        }
    }

    @Test
    void closeClosesTheListenerAndRemovesTheLaunchsNames() throws Exception {
        Path fifo = Files.writeString(dir.resolve("record-4"), "");
        CanaryListener l = CanaryListener.open(port -> false).orElseThrow();
        new CanaryOutside(Optional.empty(), Optional.of(l), List.of(fifo)).close();
        assertFalse(Files.exists(fifo));
        assertThrows(IOException.class, () -> SocketChannel.open(new InetSocketAddress("127.0.0.1", l.port())).close(),
                "nothing listens on the canary's port any more");
    }

    /**
     * Until the listener's side of a connection to {@code port} is established (queued for accept); the JDK's
     * sockets are dual-stack, so it may be listed in tcp6.
     */
    private static void awaitQueued(int port) throws Exception {
        String local = String.format(":%04X", port);
        for (int i = 0; i < 500; i++) {
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 3 && f[1].endsWith(local) && f[3].equals("01")) {
                        return;
                    }
                }
            }
            Thread.sleep(10);
        }
        assertTrue(false, "the connection to " + port + " was never established");
    }
}
