package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.TransportMediation;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mediated egress route on the real kernel: the program's namespace leads out only through the relay to
 * the session's socket, with the session's preamble first; a direct connection ignoring the proxy variables,
 * UDP and a non-loopback address reach nothing. Controls: the same action without the egress statement (the
 * one statement that differs) reaches the test's listener. The actor is a grandchild.
 */
class MediatedEgressTest {
    static final int PROXY_PORT = 3128;
    static final EgressGrant PYPI = new EgressGrant(Protocol.TCP, "pypi.test", 443, 443);

    @TempDir
    Path tmp;

    private static ExecutionSpec spec(String action, Path cwd, List<ControlRequirement> reqs, TransportMediation t) {
        return new ExecutionSpec("/bin/sh", List.of("-c", "/bin/bash -c '" + action + "; :'; :"), cwd.toString(),
                IdentityRef.anonymous(), reqs, Map.of("PATH", "/usr/bin:/bin"), CredentialPosture.none(),
                new Stdio.Inherit(), List.of(), t);
    }

    private static List<ControlRequirement> egress(EgressGrant... grants) {
        return List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(grants))));
    }

    private static final TransportMediation MEDIATED = TransportMediation.mediated(PROXY_PORT, "test");

    private void run(LandlockSeccompBackend b, ExecutionSpec spec, RelayStandIn session) throws Exception {
        EnforcementPlan plan = Harness.plan(b, spec).withMediation(session);
        try (var prepared = b.prepare(plan)) {
            prepared.spawn().await();
        }
    }

    private static ServerSocketChannel listen(InetAddress a) throws IOException {
        ServerSocketChannel s = ServerSocketChannel.open();
        s.bind(new InetSocketAddress(a, 0));
        s.configureBlocking(false);
        return s;
    }

    private static String drain(ServerSocketChannel server) throws IOException {
        StringBuilder got = new StringBuilder();
        while (true) {
            SocketChannel accepted = server.accept();
            if (accepted == null) {
                return got.toString();
            }
            try (SocketChannel c = accepted) {
                c.configureBlocking(true);
                ByteBuffer b = ByteBuffer.allocate(256);
                while (c.read(b) > 0) {
                    // until the sender's close
                }
                got.append(new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII));
            }
        }
    }

    @Test
    void theProgramReachesTheSessionOnlyThroughTheRelayWithThePreambleFirst() throws Exception {
        LandlockSeccompBackend b = Harness.shared().backend;
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT)) {
            Path env = tmp.resolve("env");
            run(b, spec("printf %s \"$http_proxy\" > " + env + "; echo CONNECT pypi.test:443 > /dev/tcp/127.0.0.1/"
                    + PROXY_PORT, tmp, egress(PYPI), MEDIATED), session);
            List<RelayStandIn.Received> got = session.received(1);
            assertEquals(1, got.size());
            assertTrue(got.get(0).preambleMatched(), "the relay writes the session's preamble first");
            assertEquals("CONNECT pypi.test:443\n", got.get(0).bytes());
            assertEquals("http://127.0.0.1:" + PROXY_PORT, Files.readString(env), "the session's variables reach it");
        }
    }

    @Test
    void aDirectConnectionIgnoringTheProxyReachesNothing() throws Exception {
        LandlockSeccompBackend b = Harness.shared().backend;
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT);
             ServerSocketChannel host = listen(InetAddress.getLoopbackAddress())) {
            int port = ((InetSocketAddress) host.getLocalAddress()).getPort();
            String action = "echo direct > /dev/tcp/127.0.0.1/" + port;
            run(b, spec(action, tmp, egress(PYPI), MEDIATED), session);
            assertEquals("", drain(host), "the host's loopback is not the program's");
            Optional<InetAddress> other = NetworkConfinementTest.nonLoopbackAddress();
            if (other.isPresent()) {
                try (ServerSocketChannel far = listen(other.get())) {
                    int p = ((InetSocketAddress) far.getLocalAddress()).getPort();
                    run(b, spec("echo direct > /dev/tcp/" + other.get().getHostAddress() + "/" + p, tmp, egress(PYPI),
                            MEDIATED), session);
                    assertEquals("", drain(far), "no route to another address of this host");
                }
            }
            assertEquals(List.of(), session.received(0), "nor did it reach the proxy");
            run(b, spec(action, tmp, List.of(), TransportMediation.notRequested()), session);
            assertEquals("direct\n", drain(host), "control: egress not stated, the same action reaches it");
        }
    }

    @Test
    void udpLeavesNothingOutOfAMediatedNamespace() throws Exception {
        LandlockSeccompBackend b = Harness.shared().backend;
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT);
             DatagramChannel udp = DatagramChannel.open()) {
            udp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            udp.configureBlocking(false);
            int port = ((InetSocketAddress) udp.getLocalAddress()).getPort();
            String action = "echo dns-query > /dev/udp/127.0.0.1/" + port;
            run(b, spec(action, tmp, egress(PYPI), MEDIATED), session);
            assertEquals(null, udp.receive(ByteBuffer.allocate(64)), "no datagram reached the host");
            run(b, spec(action, tmp, List.of(), TransportMediation.notRequested()), session);
            ByteBuffer got = ByteBuffer.allocate(64);
            long end = System.currentTimeMillis() + 3000;
            while (udp.receive(got) == null && System.currentTimeMillis() < end) {
                Thread.sleep(20);
            }
            assertEquals("dns-query\n", new String(got.array(), 0, got.position(), StandardCharsets.US_ASCII),
                    "control: unmediated and unconfined, the datagram arrives");
        }
    }

    @Test
    void theBackendSaysItRelaysAMediatedLaunchAndNothingElse() throws Exception {
        LandlockSeccompBackend b = Harness.shared().backend;
        Assumptions.assumeTrue(b.facts().namespaces(), "environment cannot host this check: no namespaces");
        ExecutionSpec mediated = spec("true", tmp, egress(PYPI), MEDIATED);
        var plan = b.plan(mediated);
        assertTrue(plan.relaysTransport());
        assertTrue(plan.steps(mediated.requirements().get(0)).stream().anyMatch(s -> s.contains("transport mediation")));
        assertInstanceOf(SupportLevel.Partial.class, plan.capabilities().reportFor(CapabilityDomain.NETWORK_EGRESS)
                .orElseThrow().support());
        ExecutionSpec off = spec("true", tmp, egress(PYPI), TransportMediation.off("test"));
        var unmediated = b.plan(off);
        assertFalse(unmediated.relaysTransport());
        assertInstanceOf(SupportLevel.Unsupported.class, unmediated.capabilities()
                .reportFor(CapabilityDomain.NETWORK_EGRESS).orElseThrow().support(), "a host grant needs mediation");
        ExecutionSpec udp = spec("true", tmp, egress(new EgressGrant(Protocol.UDP, "dns.test", 53, 53)), MEDIATED);
        assertFalse(b.plan(udp).relaysTransport(), "UDP beyond loopback is not mediated");
        LaunchException e = assertThrows(LaunchException.class, () -> b.prepare(Harness.plan(b, mediated)));
        assertTrue(e.getMessage().contains("no mediation session"), e.getMessage());
    }
}
