package io.aasm.backend.landlockseccomp.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.transport.TransportMediation;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay's side of the hand-off (PROTOCOL.md, "Hand-off"): the proxy stand-in hands over the socket it dialled
 * to the test's server after the program's request head, and the relay carries 64 MiB each way with the program's
 * half-close in the middle, checked by SHA-256 at the server (BulkPeer). Its report must count exactly what the
 * server saw, less what the stand-in forwarded itself. The same transfer without a hand-off (the relay in its
 * dialog mode) is RelayBulkTransferTest's mediated case; the real proxy with this relay is MediationHandOffIT.
 */
class RelayHandOffTest {
    static final int PROXY_PORT = 3128;

    @TempDir
    Path tmp;

    @Test
    void aHandedTunnelCarriesSixtyFourMebibytesEachWayAndTheReportCountsThem() throws Exception {
        LandlockSeccompBackend b = Harness.shared().backend;
        Path out = tmp.resolve("out");
        Path script = tmp.resolve("bulk.py");
        String connect = "s = socket.create_connection(('127.0.0.1', port))";
        assertTrue(BulkPeer.CLIENT.contains(connect));
        Files.writeString(script, BulkPeer.CLIENT.replace(connect, String.join("\n", connect,
                "s.sendall(b'CONNECT bulk.test:443 HTTP/1.1\\r\\n\\r\\n')",
                "head = b''",
                "while not head.endswith(b'\\r\\n\\r\\n'):",
                "    head += s.recv(1)")));
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            CompletableFuture<BulkPeer.Result> at = CompletableFuture.supplyAsync(() -> {
                try (SocketChannel c = server.accept()) {
                    return BulkPeer.exchange(c, RelayBulkTransferTest.SIZE);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (HandingProxy proxy = new HandingProxy(tmp, port)) {
                EgressGrant bulk = new EgressGrant(Protocol.TCP, "bulk.test", 443, 443);
                String action = "/usr/bin/python3 " + script + " " + PROXY_PORT + " " + RelayBulkTransferTest.SIZE + " "
                        + out;
                Execution handle;
                try (var prepared = b.prepare(Harness.plan(b, RelayBulkTransferTest.spec(action, tmp,
                        List.of(RelayBulkTransferTest.egress(bulk)), TransportMediation.mediated(PROXY_PORT, "test")))
                        .withMediation(proxy))) {
                    handle = prepared.spawn();
                }
                BulkPeer.Result r = RelayBulkTransferTest.settle(handle, at);
                RelayBulkTransferTest.assertIntact(r, out);
                HandingProxy.Outcome o = proxy.outcome.get(30, TimeUnit.SECONDS);
                assertTrue(o.credentialed(), "the relay announced the capability, then wrote the preamble");
                assertEquals(r.received(), o.forwarded() + o.up(),
                        "what reached the server = what the stand-in forwarded + what the relay reported");
                assertEquals(r.sent() + 64, o.down(), "the relay reported every byte the server sent (and its trailer)");
                assertEquals(0, o.flags(), "the tunnel ended normally, both ways shut");
            }
        }
    }
}
