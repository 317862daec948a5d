package io.aasm.support.canary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The egress canary's listener: a granted port is never used, and a connection that arrived is named. */
class CanaryListenerTest {
    @Test
    void aConnectionThatArrivedIsNamedWithItsPortEvenAfterClose() throws Exception {
        CanaryListener l = CanaryListener.open(port -> false).orElseThrow();
        int port = l.port();
        assertTrue(port > 0);
        try (SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            Optional<String> seen = l.reached();
            for (int i = 0; i < 200 && seen.isEmpty(); i++) { // the kernel queues it once the handshake is done
                Thread.sleep(10);
                seen = l.reached();
            }
            assertEquals(Optional.of("network_egress: the canary reached the supervisor's listener on 127.0.0.1:"
                    + port), seen);
        }
        l.close();
        assertEquals(port, l.port(), "the port the evidence names outlives the listener");
    }

    @Test
    void noConnectionIsNoEscape() throws Exception {
        try (CanaryListener l = CanaryListener.open(port -> false).orElseThrow()) {
            assertEquals(Optional.empty(), l.reached());
        }
    }

    @Test
    void aPortTheGrantsCoverIsNeverTheCanarys() throws Exception {
        assertEquals(Optional.empty(), CanaryListener.open(port -> true), "every port granted: no listener");
    }
}
