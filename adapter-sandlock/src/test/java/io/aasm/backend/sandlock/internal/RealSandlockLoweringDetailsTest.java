package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three egress lowerings the v0.8.6 contract lists without showing them combined, checked against
 * the real binary: a CIDR with a port, {@code [::1]} with a port, and a port list. Each must let bytes
 * through to exactly the granted ports and to no neighbour (no widening); every "no byte" has a control
 * run that differs by that one port and does deliver. A grandchild connects with bash's /dev/tcp.
 */
class RealSandlockLoweringDetailsTest {
    @TempDir
    Path dir;

    private SandlockBackend backend;
    private Path bash;

    @BeforeEach
    void start() {
        backend = Fixtures.realOrCannotHost(dir, Path.of("/sys"));
        Optional<Path> b = List.of(Path.of("/bin/bash"), Path.of("/usr/bin/bash")).stream()
                .filter(Files::isExecutable).findFirst();
        Assumptions.assumeTrue(b.isPresent(), "environment cannot host this check: no bash for /dev/tcp");
        bash = b.get();
    }

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.deactivate();
        }
    }

    /** Connects to every port of {@code ports} on {@code host}, one grandchild each, under the grants. */
    private void connect(String host, List<Integer> ports, List<EgressGrant> grants) throws Exception {
        StringBuilder script = new StringBuilder();
        for (int p : ports) {
            script.append("sh -c \"").append(bash).append(" -c 'echo hello-").append(p).append(" > /dev/tcp/")
                    .append(host).append('/').append(p).append("'\" 2>/dev/null; ");
        }
        script.append("true");
        List<ControlRequirement> reqs = new ArrayList<>(List.of(Fixtures.reads(),
                Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/dev/null"))),
                Fixtures.req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(grants))));
        (backend.prepare(Fixtures.plan(Fixtures.spec("/bin/sh",
                List.of("-c", script.toString()), reqs, Map.of()))).spawn()).await();
    }

    private static ServerSocket listen(String address) throws IOException {
        ServerSocket s = new ServerSocket(0, 8, InetAddress.getByName(address));
        s.setSoTimeout(300);
        return s;
    }

    private static String received(ServerSocket server) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        while (true) {
            try (Socket s = server.accept()) {
                s.setSoTimeout(500);
                all.write(s.getInputStream().readNBytes(64));
            } catch (SocketTimeoutException e) {
                return all.toString();
            }
        }
    }

    private static EgressGrant tcp(String host, int port) {
        return new EgressGrant(Protocol.TCP, host, port, port);
    }

    @Test
    void aCidrWithAPortAllowsThatPortOnly() throws Exception {
        try (ServerSocket granted = listen("127.0.0.1"); ServerSocket other = listen("127.0.0.1")) {
            int g = granted.getLocalPort();
            int o = other.getLocalPort();
            connect("127.0.0.1", List.of(g, o), List.of(tcp("127.0.0.0/8", g)));
            assertEquals("hello-" + g + "\n", received(granted), "tcp://127.0.0.0/8:" + g + " must let bytes through");
            assertEquals("", received(other), "a CIDR rule with a port widened to another port");
            connect("127.0.0.1", List.of(o), List.of(tcp("127.0.0.0/8", o)));
            assertEquals("hello-" + o + "\n", received(other), "control: the same rule for that port delivers");
        }
    }

    @Test
    void ipv6LoopbackWithAPortAllowsThatPortOnly() throws Exception {
        ServerSocket probe;
        try {
            probe = listen("::1");
        } catch (IOException e) {
            Assumptions.abort("environment cannot host this check: no IPv6 loopback (" + e.getMessage() + ")");
            return;
        }
        try (ServerSocket granted = probe; ServerSocket other = listen("::1")) {
            int g = granted.getLocalPort();
            int o = other.getLocalPort();
            // host "loopback" lowers to tcp://127.0.0.0/8:P and tcp://[::1]:P
            connect("::1", List.of(g, o), List.of(tcp("loopback", g)));
            assertEquals("hello-" + g + "\n", received(granted), "tcp://[::1]:" + g + " must let bytes through");
            assertEquals("", received(other), "an [::1] rule with a port widened to another port");
            connect("::1", List.of(o), List.of(tcp("::1", o)));
            assertEquals("hello-" + o + "\n", received(other), "control: the same rule for that port delivers");
        }
    }

    @Test
    void aPortListAllowsExactlyItsPorts() throws Exception {
        List<ServerSocket> socks = consecutive(4);
        try {
            int base = socks.get(0).getLocalPort();
            // ports base..base+2 lower to the list "base,base+1,base+2"; base+3 is the neighbour outside it
            connect("127.0.0.1", List.of(base, base + 1, base + 2, base + 3),
                    List.of(new EgressGrant(Protocol.TCP, "127.0.0.1", base, base + 2)));
            for (int i = 0; i < 3; i++) {
                assertEquals("hello-" + (base + i) + "\n", received(socks.get(i)), "listed port " + (base + i));
            }
            assertEquals("", received(socks.get(3)), "a port list widened to the next port");
            connect("127.0.0.1", List.of(base + 3), List.of(new EgressGrant(Protocol.TCP, "127.0.0.1", base,
                    base + 3)));
            assertEquals("hello-" + (base + 3) + "\n", received(socks.get(3)), "control: listed, it delivers");
        } finally {
            for (ServerSocket s : socks) {
                s.close();
            }
        }
    }

    /** Four listeners on consecutive ports (retried until a free run is found). */
    private static List<ServerSocket> consecutive(int n) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = 20000 + (int) (Math.random() * 30000);
            List<ServerSocket> out = new ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    ServerSocket s = new ServerSocket(base + i, 8, InetAddress.getByName("127.0.0.1"));
                    s.setSoTimeout(300);
                    out.add(s);
                }
                return out;
            } catch (IOException busy) {
                for (ServerSocket s : out) {
                    s.close();
                }
            }
        }
        throw new IOException("no run of " + n + " free consecutive ports");
    }

    @Test
    void theLoweringsAreTheOnesCheckedHere() {
        var egress = Fixtures.req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                tcp("127.0.0.0/8", 80), tcp("loopback", 81), new EgressGrant(Protocol.TCP, "127.0.0.1", 82, 84))));
        assertTrue(backend.plan(Fixtures.spec("/bin/true", List.of(), List.of(egress), java.util.Map.of()))
                .steps(egress).containsAll(List.of("--net-allow=tcp://127.0.0.0/8:80", "--net-allow=tcp://[::1]:81",
                        "--net-allow=tcp://127.0.0.1:82,83,84")));
    }
}
