package io.aasm.backend.nativ.internal.kernel;

import static io.aasm.backend.nativ.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listeners the test owns on 127.0.0.1. When a launch has ended, anything the grandchild sent over
 * loopback is already queued at the listener, so non-blocking reads after exit decide arrival.
 */
class NetworkConfinementTest {
    @TempDir
    Path tmp;

    private static ControlRequirement egress(EgressGrant... grants) {
        return req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(grants)));
    }

    private static EgressGrant tcp(int port) {
        return new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, port, port);
    }

    private static String drain(ServerSocketChannel server) throws IOException {
        StringBuilder got = new StringBuilder();
        while (true) {
            SocketChannel accepted = server.accept();
            if (accepted == null) {
                return got.toString();
            }
            try (SocketChannel c = accepted) {
                ByteBuffer b = ByteBuffer.allocate(256);
                c.configureBlocking(true);
                c.socket().setSoTimeout(2000);
                while (c.read(b) > 0) {
                    // read until the sender's close
                }
                got.append(new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII));
            }
        }
    }

    @Test
    void tcpToAnUngrantedPortNeverConnectsAndTheGrantedPortReceivesTheBytes() throws Exception {
        Harness h = Harness.shared();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            String action = "echo aasm-bytes > /dev/tcp/127.0.0.1/" + port;
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(tcp(port == 65535 ? 1 : port + 1)))));
            assertEquals("", drain(server), "Landlock port rule: nothing may reach an ungranted port");
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(req(CapabilityDomain.NETWORK_EGRESS,
                    new Scope.WholeDomain()))));
            assertEquals("", drain(server), "network namespace: the host loopback is unreachable");
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(tcp(port)))));
            assertEquals("aasm-bytes\n", drain(server), "control: the granted port receives the bytes");
        }
    }

    @Test
    void udpDatagramNeverArrivesUnlessUdpIsGranted() throws Exception {
        Harness h = Harness.shared();
        try (DatagramChannel rx = DatagramChannel.open()) {
            rx.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            rx.configureBlocking(false);
            int port = ((InetSocketAddress) rx.getLocalAddress()).getPort();
            String action = "echo aasm-datagram > /dev/udp/127.0.0.1/" + port;
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(tcp(port)))));
            ByteBuffer b = ByteBuffer.allocate(256);
            assertEquals(null, rx.receive(b), "UDP is denied by seccomp when only TCP is granted");
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(tcp(port),
                    new EgressGrant(Protocol.UDP, EgressGrant.LOOPBACK, port, port)))));
            assertTrue(rx.receive(b) != null, "control: with a UDP grant the datagram arrives");
            assertEquals("aasm-datagram\n", new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void nonLoopbackHostsAreReportedUnsupportedForThatScope() {
        Harness h = Harness.shared();
        var spec = Harness.grandchild("/bin/sh", "true", tmp, Map.of(), List.of(egress(
                new EgressGrant(Protocol.TCP, "example.com", 443, 443))));
        var report = h.backend.capabilitiesFor(spec).reportFor(CapabilityDomain.NETWORK_EGRESS).orElseThrow();
        SupportLevel.Unsupported u = assertInstanceOf(SupportLevel.Unsupported.class, report.support());
        assertTrue(u.reason().contains("example.com"), u.reason());
        assertFalse(report.canPrevent());
        var loop = h.backend.capabilitiesFor(Harness.grandchild("/bin/sh", "true", tmp, Map.of(), List.of(egress(tcp(8080)))))
                .reportFor(CapabilityDomain.NETWORK_EGRESS).orElseThrow();
        SupportLevel.Partial p = assertInstanceOf(SupportLevel.Partial.class, loop.support());
        assertTrue(p.limitations().stream().anyMatch(l -> l.contains("do not restrict the destination host")));
    }
}
