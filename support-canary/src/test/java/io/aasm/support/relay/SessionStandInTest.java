package io.aasm.support.relay;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.transport.RelayEndpoint;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay probes' session stand-in, on a real unix socket: what the test writes plays the relay. The
 * control (the session's preamble, then the marker) is believed; each case that differs from it by one
 * thing (a preamble byte, the marker, the connection itself) is not.
 */
class SessionStandInTest {
    static final String MARKER = "aasm-probe-through-relay";

    @TempDir
    Path dir;

    private static void relay(RelayEndpoint e, byte[]... parts) throws IOException {
        try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(e.socket()))) {
            for (byte[] p : parts) {
                ByteBuffer b = ByteBuffer.wrap(p);
                while (b.hasRemaining()) {
                    c.write(b);
                }
            }
        }
    }

    private static byte[] line(String s) {
        return (s + "\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void thePreambleThenTheMarkerIsCarried() throws Exception {
        try (SessionStandIn s = SessionStandIn.open(dir.resolve("session.sock"), "test-stand-in")) {
            relay(s.endpoint(), s.endpoint().preamble(), line(MARKER));
            assertTrue(s.carried(MARKER, 5_000));
        }
    }

    /** A relay that announces the hand-off capability writes it first (aasm-container-relay, aasm-native). */
    @Test
    void theHandOffCapabilityThenThePreambleThenTheMarkerIsCarried() throws Exception {
        try (SessionStandIn s = SessionStandIn.open(dir.resolve("session.sock"), "test-stand-in")) {
            relay(s.endpoint(), SessionStandIn.HANDOFF_CAPABILITY, s.endpoint().preamble(), line(MARKER));
            assertTrue(s.carried(MARKER, 5_000));
        }
    }

    @Test
    void aCapabilityOfAnotherVersionBeforeThePreambleIsNot() throws Exception {
        try (SessionStandIn s = SessionStandIn.open(dir.resolve("session.sock"), "test-stand-in")) {
            relay(s.endpoint(), new byte[] {(byte) 0xFF, 'A', 'H', 2}, s.endpoint().preamble(), line(MARKER));
            assertFalse(s.carried(MARKER, 5_000));
        }
    }

    @Test
    void aPreambleThatDiffersByOneByteIsNot() throws Exception {
        try (SessionStandIn s = SessionStandIn.open(dir.resolve("session.sock"), "test-stand-in")) {
            byte[] wrong = s.endpoint().preamble();
            wrong[31] ^= 1;
            relay(s.endpoint(), wrong, line(MARKER));
            assertFalse(s.carried(MARKER, 5_000));
        }
    }

    @Test
    void thePreambleWithOtherBytesIsNot() throws Exception {
        try (SessionStandIn s = SessionStandIn.open(dir.resolve("session.sock"), "test-stand-in")) {
            relay(s.endpoint(), s.endpoint().preamble(), line("aasm-probe-around-relay"));
            assertFalse(s.carried(MARKER, 5_000));
        }
    }

    @Test
    void noConnectionIsNotCarriedAndTheWaitEnds() throws Exception {
        try (SessionStandIn s = SessionStandIn.open(dir.resolve("session.sock"), "test-stand-in")) {
            assertFalse(s.carried(MARKER, 100));
        }
    }

    @Test
    void aRelayThatNeverStopsSendingIsReadOnlyUpToItsBound() throws Exception {
        try (SessionStandIn s = SessionStandIn.open(dir.resolve("session.sock"), "test-stand-in")) {
            RelayEndpoint e = s.endpoint();
            Thread endless = new Thread(() -> {
                try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(e.socket()))) {
                    c.write(ByteBuffer.wrap(e.preamble()));
                    c.write(ByteBuffer.wrap(line(MARKER)));
                    while (true) {
                        c.write(ByteBuffer.allocate(SessionStandIn.MAX_BYTES));
                    }
                } catch (IOException ended) {
                    // the stand-in stopped reading and closed its side
                }
            });
            endless.setDaemon(true);
            endless.start();
            // the stand-in ends the connection itself once it holds its bound: the wait is for that, not a timeout
            assertTrue(s.carried(MARKER, 60_000));
        }
    }
}
