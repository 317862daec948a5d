package io.aasm.backend.sandlock.internal.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A guard running a fast program connects, lets sandlock run, writes its last line and exits, all before
 * the JVM's next poll. Its connection still waits in the backlog with every line in it; the launch must be
 * read from it, not called unstarted (a CI run reported "the guard ended (status 13) before it started
 * sandlock" for a program that had printed its output and exited 13).
 */
class GuardAcceptTest {
    @TempDir
    Path dir;

    @Test
    void aConnectionLeftByAGuardThatAlreadyExitedIsStillTaken() throws Exception {
        Process ended = new ProcessBuilder("/bin/true").start();
        ended.waitFor();
        try (ServerSocketChannel server = bound("g");
             SocketChannel guardSide = SocketChannel.open(server.getLocalAddress())) {
            guardSide.write(ByteBuffer.wrap("started:42\nexit:code:13\n".getBytes(StandardCharsets.US_ASCII)));
            guardSide.close();
            try (SocketChannel taken = GuardProcess.accept(server, ended)) {
                assertNotNull(taken, "the connection in the backlog was dropped because the guard had exited");
                ByteBuffer b = ByteBuffer.allocate(64);
                while (taken.read(b) > 0) {
                    // read to the end: the guard's lines outlive the guard
                }
                assertEquals("started:42\nexit:code:13\n", new String(b.array(), 0, b.position(),
                        StandardCharsets.US_ASCII));
            }
        }
    }

    @Test
    void aGuardThatExitedWithoutConnectingGivesNoConnection() throws Exception {
        // Control: the same ended process and no connection: nothing to read, and no ten-second wait.
        Process ended = new ProcessBuilder("/bin/true").start();
        ended.waitFor();
        try (ServerSocketChannel server = bound("h")) {
            long t0 = System.nanoTime();
            assertNull(GuardProcess.accept(server, ended));
            assertEquals(true, System.nanoTime() - t0 < 5_000_000_000L, "waited for a guard that had exited");
        }
    }

    private ServerSocketChannel bound(String name) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(dir.resolve(name)));
        return server;
    }
}
