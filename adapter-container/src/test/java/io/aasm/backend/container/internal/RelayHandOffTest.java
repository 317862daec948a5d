package io.aasm.backend.container.internal;

import static io.aasm.backend.container.internal.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.EgressVerdict;
import io.aasm.ports.transport.TransportMediation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-off through the container's relay (relay-tunnel.h; the native adapter's PROTOCOL.md, "Hand-off"), with
 * the real proxy: a python3 grandchild in a mediated container opens an HTTP CONNECT tunnel to a granted stand-in
 * host and sends 8 MiB while it receives 8 MiB, half-closing in the middle; the server the test owns checks both
 * by SHA-256 and counts what crossed it, and the decision record's byte counts (the relay's report plus what the
 * proxy forwarded itself) must equal those counts. Mid-transfer, only the relay holds the dialled upstream socket.
 * Controls, each differing by one thing: the proxy's hand-off switched off (the JVM holds the socket, the counts
 * agree the same way); plain HTTP in absolute form (the proxy rewrites it, so it stays in the JVM's byte path);
 * a host without a grant (403, nothing reaches the server).
 */
class RelayHandOffTest {
    static final long SIZE = 8L << 20;
    static final int PROXY_PORT = TransportMediation.DEFAULT_PORT;

    static final String CLIENT = String.join("\n",
            "import hashlib, os, socket, sys, threading",
            "host, port, size, out, how = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]",
            "s = socket.create_connection(('127.0.0.1', " + PROXY_PORT + "))",
            "if how == 'get':",
            "    s.sendall(('GET http://%s:%d/x HTTP/1.1\\r\\nHost: %s:%d\\r\\nConnection: close\\r\\n\\r\\n' % (host, port, host, port)).encode())",
            "else:",
            "    s.sendall(('CONNECT %s:%d HTTP/1.1\\r\\nHost: %s:%d\\r\\n\\r\\n' % (host, port, host, port)).encode())",
            "    head = b''",
            "    while not head.endswith(b'\\r\\n\\r\\n'):",
            "        c = s.recv(1)",
            "        if not c:",
            "            break",
            "        head += c",
            "    if not head.startswith(b'HTTP/1.1 200'):",
            "        open(out, 'w').write('refused ' + head.split(b'\\r\\n')[0].decode())",
            "        sys.exit(3)",
            "sent = hashlib.sha256()",
            "def send():",
            "    left = size",
            "    while left > 0:",
            "        chunk = os.urandom(min(left, 1 << 20))",
            "        sent.update(chunk)",
            "        s.sendall(chunk)",
            "        left -= len(chunk)",
            "    s.shutdown(socket.SHUT_WR)",
            "t = threading.Thread(target=send)",
            "if how != 'get':",
            "    t.start()",
            "got = hashlib.sha256()",
            "n = 0",
            "while True:",
            "    b = s.recv(1 << 20)",
            "    if not b:",
            "        break",
            "    got.update(b)",
            "    n += len(b)",
            "if how != 'get':",
            "    t.join()",
            "open(out, 'w').write('%s %s %d' % (sent.hexdigest(), got.hexdigest(), n))",
            "");

    @TempDir
    Path tmp;

    private ExecutionSpec spec(Path script, String host, int port, Path out, String how) {
        String action = "/usr/bin/python3 " + script + " " + host + " " + port + " " + SIZE + " " + out + " " + how;
        return new ExecutionSpec("/bin/sh", List.of("-c", "/bin/bash -c '" + action + "; :'; :"), tmp.toString(),
                IdentityRef.anonymous(), List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "bulk.test", port, port))))), Map.of("PATH", "/usr/bin:/bin"),
                CredentialPosture.none(), new Stdio.Inherit(), List.of(),
                TransportMediation.mediated(PROXY_PORT, "test"));
    }

    private static TreeMap<String, String> pinned() {
        return new TreeMap<>(Map.of("bulk.test", "127.0.0.2", "other.test", "127.0.0.2"));
    }

    /** One tunnel of SIZE each way through the container's relay and the real proxy; returns its one record. */
    private EgressDecision tunnel(boolean handOff, Origin origin, String how, String host) throws Exception {
        ContainerBackend b = Harness.shared().backend;
        Path script = Files.writeString(tmp.resolve("bulk.py"), CLIENT);
        Path out = tmp.resolve("out");
        Files.deleteIfExists(out);
        int port = origin.port();
        try (RealProxy proxy = new RealProxy(tmp.resolve(handOff ? "on" : "off"), handOff, pinned(),
                new EgressGrant(Protocol.TCP, "bulk.test", port, port))) {
            try (var prepared = b.prepare(Harness.plan(b, spec(script, host, port, out, how))
                    .withMediation(proxy.session))) {
                prepared.spawn().await();
            }
            List<EgressDecision> records = proxy.decisions(1);
            assertEquals(1, records.size(), "one record per connection: " + records);
            return records.get(0);
        }
    }

    /** The program's side and the server's side agree, and the record counts exactly what the server saw. */
    private Origin.Seen intactAndCounted(EgressDecision d, Origin origin) throws Exception {
        Origin.Seen at = origin.seen();
        String[] p = Files.readString(tmp.resolve("out")).split(" ");
        assertEquals(3, p.length, "the program finished the exchange: " + String.join(" ", p));
        assertEquals(SIZE, at.received(), "every byte the program sent reached the server");
        assertEquals(p[0], at.receivedSha256(), "the program's bytes arrived unaltered");
        assertEquals(Long.toString(SIZE), p[2], "every byte the server sent reached the program");
        assertEquals(at.sentSha256(), p[1], "the server's bytes arrived unaltered");
        assertEquals(EgressVerdict.ALLOWED, d.verdict());
        assertEquals(at.received(), d.bytesUp(), "bytes up in the record = what the server read: " + d);
        assertEquals(at.sent(), d.bytesDown(), "bytes down in the record = what the server sent: " + d);
        assertTrue(d.reason().isEmpty(), "the tunnel ended normally and reported: " + d);
        return at;
    }

    @Test
    void aHandedTunnelCarriesEightMebibytesEachWayAndTheRecordCountsWhatTheServerSaw() throws Exception {
        try (Origin origin = new Origin(SIZE, 1 << 20)) {
            Origin.Seen at = intactAndCounted(tunnel(true, origin, "connect", "bulk.test"), origin);
            assertTrue(at.peerHolders().startsWith("aasm-container"), "mid-transfer only the container's relay held "
                    + "the dialled upstream socket (the proxy's JVM had left the byte path): " + at.peerHolders());
        }
    }

    @Test
    void withHandOffSwitchedOffTheJvmCarriesTheSameTunnelAndCountsItTheSame() throws Exception {
        try (Origin origin = new Origin(SIZE, 1 << 20)) {
            Origin.Seen at = intactAndCounted(tunnel(false, origin, "connect", "bulk.test"), origin);
            assertEquals("java", at.peerHolders(), "the proxy's JVM held the upstream socket, not the relay");
        }
    }

    /** Plain HTTP in absolute form: the proxy rewrites the request line, so it stays in the byte path. */
    @Test
    void plainHttpStaysInTheProxysBytePath() throws Exception {
        try (Origin origin = new Origin(SIZE, 1)) { // the request is all that arrives: whoever holds it then
            EgressDecision d = tunnel(true, origin, "get", "bulk.test");
            Origin.Seen at = origin.seen();
            assertEquals("http", d.protocol());
            assertEquals("java", at.peerHolders(), "the proxy's JVM held the upstream socket of plain HTTP");
            String[] p = Files.readString(tmp.resolve("out")).split(" ");
            assertEquals(Long.toString(SIZE), p[2], "the server's whole answer reached the program");
            assertEquals(at.sentSha256(), p[1], "unaltered");
            assertEquals(at.received(), d.bytesUp(), "the rewritten request, as the server read it: " + d);
            assertEquals(at.sent(), d.bytesDown(), d.toString());
        }
    }

    @Test
    void aHostWithoutAGrantIsRefusedAndNothingReachesTheServer() throws Exception {
        try (Origin origin = new Origin(SIZE, 1 << 20)) {
            EgressDecision d = tunnel(true, origin, "connect", "other.test");
            assertTrue(Files.readString(tmp.resolve("out")).startsWith("refused HTTP/1.1 403"),
                    Files.readString(tmp.resolve("out")));
            assertEquals(EgressVerdict.DENIED, d.verdict(), d.toString());
            origin.close();
            assertFalse(origin.reached(), "without the grant no connection reached the server");
        }
    }
}
