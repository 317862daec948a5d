package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
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

    /** The only TCP grant the Landlock port route enforces exactly: the port on every destination. */
    private static List<EgressGrant> everywhere(int port) {
        return List.of(new EgressGrant(Protocol.TCP, "0.0.0.0/0", port, port),
                new EgressGrant(Protocol.TCP, "::/0", port, port));
    }

    private static ControlRequirement egress(List<EgressGrant> grants) {
        return req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(grants));
    }

    private static ServerSocketChannel listen(InetAddress a, int port) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(a, port));
        server.configureBlocking(false);
        return server;
    }

    private static int port(ServerSocketChannel s) throws IOException {
        return ((InetSocketAddress) s.getLocalAddress()).getPort();
    }

    static Optional<InetAddress> nonLoopbackAddress() throws SocketException {
        for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (n.isUp() && !n.isLoopback()) {
                for (InetAddress a : Collections.list(n.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLinkLocalAddress()) {
                        return Optional.of(a);
                    }
                }
            }
        }
        return Optional.empty();
    }

    @Test
    void tcpToAnUngrantedPortNeverConnectsAndTheGrantedPortReceivesTheBytes() throws Exception {
        Harness h = Harness.shared();
        try (ServerSocketChannel server = listen(InetAddress.getLoopbackAddress(), 0)) {
            int port = port(server);
            String action = "echo aasm-bytes > /dev/tcp/127.0.0.1/" + port;
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(everywhere(port == 65535 ? 1 : port + 1)))));
            assertEquals("", drain(server), "Landlock port rule: nothing may reach an ungranted port");
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(req(CapabilityDomain.NETWORK_EGRESS,
                    new Scope.WholeDomain()))));
            assertEquals("", drain(server), "network namespace: the host loopback is unreachable");
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(everywhere(port)))));
            assertEquals("aasm-bytes\n", drain(server), "control: the granted port receives the bytes");
        }
    }

    /**
     * The escape the conformance suite found: a loopback port grant installed as a Landlock port rule
     * let the grandchild reach the same port on another address of this host. Now the program runs in
     * its own network namespace and only the granted loopback port is relayed: the other address of
     * this host on the granted port receives nothing; the control (the port granted to every
     * destination, the one grant that differs) reaches it.
     */
    @Test
    void aLoopbackPortGrantDoesNotReachThePortOnAnotherAddressOfThisHost() throws Exception {
        Harness h = Harness.shared();
        Optional<InetAddress> local = nonLoopbackAddress();
        Assumptions.assumeTrue(local.isPresent(),
                "environment cannot host this check: this host has no non-loopback IPv4 address to listen on");
        try (ServerSocketChannel granted = listen(InetAddress.getLoopbackAddress(), 0);
             ServerSocketChannel other = listen(local.get(), port(granted))) {
            int port = port(granted);
            String action = "echo aasm-bytes > /dev/tcp/" + local.get().getHostAddress() + "/" + port;
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(tcp(port)))));
            assertEquals("", drain(other), "the granted port number on another address of this host is unreachable");
            assertEquals("", drain(granted), "and nothing was redirected to the granted service either");
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(everywhere(port)))));
            assertEquals("aasm-bytes\n", drain(other), "control: the port granted to every destination reaches it");
        }
    }

    @Test
    void aLoopbackPortGrantReachesOnlyThatPortOfTheHostLoopback() throws Exception {
        Harness h = Harness.shared();
        try (ServerSocketChannel server = listen(InetAddress.getLoopbackAddress(), 0)) {
            int port = port(server);
            String action = "echo aasm-bytes > /dev/tcp/127.0.0.1/" + port;
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(tcp(port == 65535 ? 1 : port + 1)))));
            assertEquals("", drain(server), "an unlisted loopback port receives nothing");
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(tcp(port)))));
            assertEquals("aasm-bytes\n", drain(server), "control: the granted loopback port receives the bytes");
        }
    }

    @Test
    void aLoopbackPortGrantAlsoReachesTheHostIpv6Loopback() throws Exception {
        Harness h = Harness.shared();
        ServerSocketChannel server;
        try {
            server = listen(InetAddress.getByName("::1"), 0);
        } catch (IOException e) {
            Assumptions.abort("environment cannot host this check: no IPv6 loopback on this host: " + e.getMessage());
            return;
        }
        try (server) {
            int port = port(server);
            String action = "echo aasm-bytes > /dev/tcp/::1/" + port;
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(tcp(port == 65535 ? 1 : port + 1)))));
            assertEquals("", drain(server), "an unlisted port on ::1 receives nothing");
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(tcp(port)))));
            assertEquals("aasm-bytes\n", drain(server), "control: the granted port on the host's ::1 receives the bytes");
        }
    }

    @Test
    void theRelayCarriesBothWaysAndDoesNotOutliveTheTree() throws Exception {
        Harness h = Harness.shared();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = port(server);
            Path out = tmp.resolve("reply");
            // The grandchild says hello, waits for the service's answer, and leaves a daemon holding the connection.
            String action = "exec 3<>/dev/tcp/127.0.0.1/" + port + "; echo hello >&3; read x <&3; echo $x > " + out
                    + "; (setsid sleep 600 <&3 >&3 &)";
            // This test is about the relay: keep it (LoopbackInjectionTest covers the path without it).
            var handle = LoopbackInjectionTest.inMode("relay", () -> h.start(Harness.grandchild("/bin/bash", action,
                    tmp, Map.of(), List.of(egress(tcp(port))))));
            try (SocketChannel c = server.accept()) {
                c.socket().setSoTimeout(20_000);
                var in = new java.io.BufferedReader(new java.io.InputStreamReader(c.socket().getInputStream(),
                        StandardCharsets.US_ASCII));
                assertEquals("hello", in.readLine());
                int peerPort = ((InetSocketAddress) c.getRemoteAddress()).getPort();
                long relay = HostSockets.ownerOfLoopbackConnection(peerPort, port).orElseThrow(
                        () -> new AssertionError("no process holds the host side of the connection"));
                Path proc = Path.of("/proc/" + relay);
                assertEquals("aasm-launch", Files.readString(proc.resolve("comm")).strip(),
                        "the host side is held by the launcher's relay, not by the program");
                assertTrue(Files.readSymbolicLink(proc.resolve("exe")).toString().startsWith("/memfd:aasm-launch"),
                        "the launcher runs from its sealed memory file");
                assertEquals(Files.readSymbolicLink(Path.of("/proc/self/ns/net")), Files.readSymbolicLink(proc.resolve("ns/net")),
                        "the relay lives in the host's network namespace");
                c.socket().getOutputStream().write("answer\n".getBytes(StandardCharsets.US_ASCII));
                handle.await();
                assertEquals("answer\n", Files.readString(out), "the service's answer reached the program");
                assertFalse(Files.exists(Path.of("/proc/" + relay)), "the relay (pid " + relay + ") survived the tree");
            }
        }
    }

    @Test
    void aLoopbackGrantMixedWithOtherGrantsRefusesBeforeLaunch() throws Exception {
        Harness h = Harness.shared();
        Path marker = tmp.resolve("ran");
        List<EgressGrant> mixed = new ArrayList<>(everywhere(443));
        mixed.add(tcp(8080));
        var spec = Harness.grandchild("/bin/sh", "touch " + marker, tmp, Map.of(), List.of(egress(mixed)));
        var report = h.backend.plan(spec).capabilities().reportFor(CapabilityDomain.NETWORK_EGRESS).orElseThrow();
        SupportLevel.Unsupported u = assertInstanceOf(SupportLevel.Unsupported.class, report.support());
        assertTrue(u.reason().contains("every address") && u.reason().contains("loopback TCP ports alone"), u.reason());
        LaunchException e = assertThrows(LaunchException.class, () -> h.run(spec));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, e.kind());
        assertFalse(Files.exists(marker), "nothing ran");
    }

    @Test
    void udpDatagramNeverArrivesUnlessUdpIsGranted() throws Exception {
        Harness h = Harness.shared();
        try (DatagramChannel rx = DatagramChannel.open()) {
            rx.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            rx.configureBlocking(false);
            int port = ((InetSocketAddress) rx.getLocalAddress()).getPort();
            String action = "echo aasm-datagram > /dev/udp/127.0.0.1/" + port;
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(everywhere(port)))));
            ByteBuffer b = ByteBuffer.allocate(256);
            assertEquals(null, rx.receive(b), "UDP is denied by seccomp when only TCP is granted");
            List<EgressGrant> withUdp = new ArrayList<>(everywhere(port));
            withUdp.add(new EgressGrant(Protocol.UDP, "0.0.0.0/0", 0, 65535));
            withUdp.add(new EgressGrant(Protocol.UDP, "::/0", 0, 65535));
            h.run(Harness.grandchild("/bin/bash", action, tmp, Map.of(), List.of(egress(withUdp))));
            assertTrue(rx.receive(b) != null, "control: with a UDP grant the datagram arrives");
            assertEquals("aasm-datagram\n", new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void aLoopbackUdpGrantIsRelayedBothWaysAndNothingElseLeaves() throws Exception {
        Harness h = Harness.shared();
        try (DatagramChannel service = DatagramChannel.open(); DatagramChannel other = DatagramChannel.open()) {
            service.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            other.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            service.configureBlocking(false);
            other.configureBlocking(false);
            int port = ((InetSocketAddress) service.getLocalAddress()).getPort();
            int otherPort = ((InetSocketAddress) other.getLocalAddress()).getPort();
            Path out = tmp.resolve("answer");
            // The grandchild asks the granted service, waits for its answer, and also tries the other port.
            Path script = Files.writeString(tmp.resolve("udp.py"), String.join("\n",
                    "import socket, sys",
                    "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)",
                    "s.settimeout(10)",
                    "s.sendto(b'leak', ('127.0.0.1', int(sys.argv[2])))",
                    "if sys.argv[1] != '0':",
                    "    s.sendto(b'ping', ('127.0.0.1', int(sys.argv[1])))",
                    "    open(sys.argv[3], 'wb').write(s.recvfrom(100)[0])", ""));
            String ask = "python3 " + script + " " + port + " " + otherPort + " " + out;
            var handle = h.start(Harness.grandchild("/bin/sh", ask, tmp, Map.of(), List.of(
                    egress(new EgressGrant(Protocol.UDP, EgressGrant.LOOPBACK, port, port)))));
            ByteBuffer b = ByteBuffer.allocate(64);
            java.net.SocketAddress from = null;
            for (int i = 0; i < 400 && from == null; i++) {
                from = service.receive(b);
                Thread.sleep(from == null ? 50 : 0);
            }
            assertTrue(from != null, "the granted service never heard the program");
            assertEquals("ping", new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII));
            service.send(ByteBuffer.wrap("pong".getBytes(StandardCharsets.US_ASCII)), from);
            handle.await();
            assertEquals("pong", Files.readString(out), "the service's answer came back through the relay");
            assertEquals(null, other.receive(ByteBuffer.allocate(64)), "an ungranted UDP port never hears anything");
            // Control: the same datagram to the other port arrives once that port is granted instead.
            h.run(Harness.grandchild("/bin/sh", "python3 " + script + " 0 " + otherPort + " -", tmp, Map.of(),
                    List.of(egress(new EgressGrant(Protocol.UDP, EgressGrant.LOOPBACK, otherPort, otherPort)))));
            java.net.SocketAddress heard = null;
            for (int i = 0; i < 100 && heard == null; i++) {
                heard = other.receive(ByteBuffer.allocate(64));
                Thread.sleep(heard == null ? 50 : 0);
            }
            assertTrue(heard != null, "control: a granted UDP port hears the datagram");
        }
    }

    @Test
    void grantsNarrowerThanEveryDestinationAreReportedUnsupportedForThatScope() {
        Harness h = Harness.shared();
        for (List<EgressGrant> inexact : List.of(
                List.of(new EgressGrant(Protocol.TCP, "example.com", 443, 443)),
                List.of(new EgressGrant(Protocol.TCP, "0.0.0.0/0", 8080, 8080)),
                List.of(new EgressGrant(Protocol.TCP, "0.0.0.0/0", 8080, 8081), new EgressGrant(Protocol.TCP, "::/0", 8080, 8080)),
                List.of(new EgressGrant(Protocol.UDP, EgressGrant.LOOPBACK, 53, 53), tcp(80),
                        new EgressGrant(Protocol.TCP, "0.0.0.0/0", 443, 443)))) {
            var spec = Harness.grandchild("/bin/sh", "true", tmp, Map.of(), List.of(egress(inexact)));
            var report = h.backend.plan(spec).capabilities().reportFor(CapabilityDomain.NETWORK_EGRESS).orElseThrow();
            assertInstanceOf(SupportLevel.Unsupported.class, report.support(), inexact.toString());
            assertFalse(report.canPrevent(), inexact.toString());
        }
        var relayed = h.backend.plan(Harness.grandchild("/bin/sh", "true", tmp, Map.of(), List.of(egress(tcp(8080)))))
                .capabilities().reportFor(CapabilityDomain.NETWORK_EGRESS).orElseThrow();
        SupportLevel.Partial r = assertInstanceOf(SupportLevel.Partial.class, relayed.support());
        assertTrue(r.limitations().stream().anyMatch(l -> l.contains("connections from the relay")), r.limitations().toString());
        var exact = h.backend.plan(Harness.grandchild("/bin/sh", "true", tmp, Map.of(), List.of(egress(everywhere(8080)))))
                .capabilities().reportFor(CapabilityDomain.NETWORK_EGRESS).orElseThrow();
        SupportLevel.Partial p = assertInstanceOf(SupportLevel.Partial.class, exact.support());
        assertTrue(p.limitations().stream().anyMatch(l -> l.contains("every destination")), p.limitations().toString());
    }
}
