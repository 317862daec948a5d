package io.aasm.backend.container.internal;

import static io.aasm.backend.container.internal.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.SupportLevel;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mediated egress route in real containers (RELAY.md): the container's only way out is the supervisor's
 * relay, listening inside its network namespace and carrying each connection to the session's socket with the
 * session's preamble first. The session here is a stand-in the test owns (the proxy's admission is tested with
 * the real proxy by the conformance suite's mediation family). Each denial has its one-difference control; the
 * actor is a grandchild.
 */
class MediatedEgressTest {
    static final int PROXY_PORT = TransportMediation.DEFAULT_PORT;
    static final EgressGrant PYPI = new EgressGrant(Protocol.TCP, "pypi.test", 443, 443);
    static final TransportMediation MEDIATED = TransportMediation.mediated(PROXY_PORT, "test");

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

    private static void run(ContainerBackend b, ExecutionSpec spec, RelayStandIn session) throws Exception {
        try (var prepared = b.prepare(Harness.plan(b, spec).withMediation(session))) {
            prepared.spawn().await();
        }
    }

    /** The same spec unmediated, in the host's network namespace (the probe-only setting): the direct control. */
    private static void hostNetwork(ContainerBackend b, ExecutionSpec spec) throws LaunchException {
        b.runDirect(spec, ContainerPlan::withHostNetwork);
    }

    private static ServerSocketChannel listen(InetAddress a) throws IOException {
        ServerSocketChannel s = ServerSocketChannel.open();
        s.bind(new InetSocketAddress(a, 0));
        s.configureBlocking(false);
        return s;
    }

    private static String drain(ServerSocketChannel server) throws IOException {
        StringBuilder got = new StringBuilder();
        for (SocketChannel accepted = server.accept(); accepted != null; accepted = server.accept()) {
            try (SocketChannel c = accepted) {
                c.configureBlocking(true);
                ByteBuffer b = ByteBuffer.allocate(256);
                while (c.read(b) > 0) {
                    // until the sender's close
                }
                got.append(new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII));
            }
        }
        return got.toString();
    }

    @Test
    void theProgramReachesTheSessionThroughTheRelayWithThePreambleFirst() throws Exception {
        ContainerBackend b = Harness.shared().backend;
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT)) {
            Path env = tmp.resolve("env");
            String action = "printf %s \"$http_proxy\" > " + env + "; echo CONNECT pypi.test:443 > /dev/tcp/127.0.0.1/"
                    + PROXY_PORT;
            run(b, spec(action, tmp, egress(), TransportMediation.notRequested()), session);
            assertEquals(List.of(), session.received(0), "control: with allow: [] nothing reaches the session");
            assertEquals("", Files.readString(env), "and no proxy variable is set");
            run(b, spec(action, tmp, egress(PYPI), MEDIATED), session);
            List<RelayStandIn.Received> got = session.received(1);
            assertEquals(1, got.size());
            assertTrue(got.get(0).preambleMatched(), "the relay writes the session's preamble first");
            assertEquals("CONNECT pypi.test:443\n", got.get(0).bytes());
            assertEquals("http://127.0.0.1:" + PROXY_PORT, Files.readString(env), "the session's variables reach it");
        }
        assertTrue(relays().isEmpty(), "no relay outlives its launch: " + relays());
    }

    /** Without an init (process creation denied) the relay's waiting role execs the program itself. */
    @Test
    void aProgramThatMayNotForkStillGoesOutThroughTheRelay() throws Exception {
        ContainerBackend b = Harness.shared().backend;
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT)) {
            List<ControlRequirement> reqs = new java.util.ArrayList<>(egress(PYPI));
            reqs.add(req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain()));
            ExecutionSpec spec = new ExecutionSpec("/bin/bash", List.of("-c", "echo no-fork > /dev/tcp/127.0.0.1/"
                    + PROXY_PORT), tmp.toString(), IdentityRef.anonymous(), reqs, Map.of("PATH", "/usr/bin:/bin"),
                    CredentialPosture.none(), new Stdio.Inherit(), List.of(), MEDIATED);
            run(b, spec, session);
            List<RelayStandIn.Received> got = session.received(1);
            assertEquals(1, got.size());
            assertTrue(got.get(0).preambleMatched());
            assertEquals("no-fork\n", got.get(0).bytes());
        }
    }

    @Test
    void theSessionsAnswerComesBack() throws Exception {
        ContainerBackend b = Harness.shared().backend;
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT, "HTTP/1.0 200 stand-in\r\n\r\nhello")) {
            Path out = tmp.resolve("out");
            run(b, spec("exec 3<>/dev/tcp/127.0.0.1/" + PROXY_PORT + "; echo ask >&3; cat <&3 > " + out, tmp,
                    egress(PYPI), MEDIATED), session);
            assertEquals("HTTP/1.0 200 stand-in\r\n\r\nhello", Files.readString(out));
        }
    }

    @Test
    void aDirectConnectionIgnoringTheProxyReachesNothing() throws Exception {
        ContainerBackend b = Harness.shared().backend;
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT);
             ServerSocketChannel host = listen(InetAddress.getByName("0.0.0.0"))) {
            int port = ((InetSocketAddress) host.getLocalAddress()).getPort();
            String action = "echo direct > /dev/tcp/127.0.0.1/" + port;
            run(b, spec(action, tmp, egress(PYPI), MEDIATED), session);
            for (String a : ProbeSetup.hostAddresses()) {
                run(b, spec("echo direct > /dev/tcp/" + a + "/" + port, tmp, egress(PYPI), MEDIATED), session);
            }
            assertEquals("", drain(host), "neither the host's loopback nor its other addresses are routable");
            assertEquals(List.of(), session.received(0), "nor did it reach the proxy");
            hostNetwork(b, spec(action, tmp, egress(), TransportMediation.notRequested()));
            assertEquals("direct\n", drain(host), "control: the same container in the host's network reaches it");
        }
    }

    /** MPTCP and TCP Fast Open (the protocol variants of the mediation family), straight to the host's listener. */
    @Test
    void mptcpAndFastOpenAroundTheProxyReachNothing() throws Exception {
        ContainerBackend b = Harness.shared().backend;
        Path actor = Files.writeString(tmp.resolve("variant.py"), String.join("\n",
                "import socket, sys",
                "host, port, how = sys.argv[1], int(sys.argv[2]), sys.argv[3]",
                "try:",
                "    if how == 'mptcp':",
                "        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)",
                "        s.settimeout(5)",
                "        s.connect((host, port))",
                "        s.sendall(b'mptcp')",
                "    else:",
                "        s = socket.socket()",
                "        s.sendto(b'tfo', 0x20000000, (host, port))",
                "    s.close()",
                "except OSError as e:",
                "    print(how, e, file=sys.stderr)", ""));
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT);
             ServerSocketChannel host = listen(InetAddress.getByName("0.0.0.0"))) {
            int port = ((InetSocketAddress) host.getLocalAddress()).getPort();
            List<String> targets = new java.util.ArrayList<>(List.of("127.0.0.1"));
            targets.addAll(ProbeSetup.hostAddresses());
            StringBuilder action = new StringBuilder("true");
            for (String t : targets) {
                for (String how : List.of("mptcp", "tfo")) {
                    action.append("; /usr/bin/python3 ").append(actor).append(' ').append(t).append(' ').append(port)
                            .append(' ').append(how);
                }
            }
            run(b, spec(action.toString(), tmp, egress(PYPI), MEDIATED), session);
            assertEquals("", drain(host), "no MPTCP or Fast Open connection left the mediated container");
            assertEquals(List.of(), session.received(0));
            hostNetwork(b, spec(action.toString(), tmp, egress(), TransportMediation.notRequested()));
            String control = drain(host);
            assertTrue(control.contains("mptcp") && control.contains("tfo"), "control: in the host's network both "
                    + "arrive: " + control);
        }
    }

    @Test
    void udpLeavesNothingOutOfAMediatedContainer() throws Exception {
        ContainerBackend b = Harness.shared().backend;
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT); DatagramChannel udp = DatagramChannel.open()) {
            udp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            udp.configureBlocking(false);
            int port = ((InetSocketAddress) udp.getLocalAddress()).getPort();
            String action = "echo dns-query > /dev/udp/127.0.0.1/" + port;
            run(b, spec(action, tmp, egress(PYPI), MEDIATED), session);
            assertEquals(null, udp.receive(ByteBuffer.allocate(64)), "no datagram reached the host");
            hostNetwork(b, spec(action, tmp, egress(), TransportMediation.notRequested()));
            ByteBuffer got = ByteBuffer.allocate(64);
            long end = System.currentTimeMillis() + 3000;
            while (udp.receive(got) == null && System.currentTimeMillis() < end) {
                Thread.sleep(20);
            }
            assertEquals("dns-query\n", new String(got.array(), 0, got.position(), StandardCharsets.US_ASCII),
                    "control: in the host's network the datagram arrives");
        }
    }

    @Test
    void theBackendRelaysAMediatedLaunchAndRefusesWhatItCannotRelay() throws Exception {
        ContainerBackend b = Harness.shared().backend;
        ExecutionSpec mediated = spec("true", tmp, egress(PYPI), MEDIATED);
        var plan = b.plan(mediated);
        assertTrue(plan.relaysTransport());
        assertTrue(plan.steps(mediated.requirements().get(0)).stream().anyMatch(s -> s.contains("transport mediation")));
        var row = plan.capabilities().reportFor(CapabilityDomain.NETWORK_EGRESS).orElseThrow();
        assertInstanceOf(SupportLevel.Partial.class, row.support());
        var probed = row.prerequisites().stream().filter(p -> p.requirement().startsWith("denial observed")).findFirst()
                .orElseThrow().status();
        assertInstanceOf(io.aasm.ports.capability.PrerequisiteStatus.Satisfied.class, probed, "the relay pair was "
                + "observed in a container on this host: " + probed);
        assertTrue(probed.toString().contains("transport relay:"), probed.toString());
        var off = b.plan(spec("true", tmp, egress(PYPI), TransportMediation.off("--no-proxy")));
        assertFalse(off.relaysTransport());
        assertInstanceOf(SupportLevel.Unsupported.class, off.capabilities().reportFor(CapabilityDomain.NETWORK_EGRESS)
                .orElseThrow().support(), "--no-proxy: a container has no other way to enforce a host grant");
        assertFalse(b.plan(spec("true", tmp, egress(new EgressGrant(Protocol.UDP, "dns.test", 53, 53)), MEDIATED))
                .relaysTransport(), "UDP beyond the container is not mediated");
        LaunchException e = assertThrows(LaunchException.class, () -> b.prepare(Harness.plan(b, mediated)));
        assertTrue(e.getMessage().contains("no mediation session"), e.getMessage());
    }

    /** The relays this JVM started that still run. */
    static List<ProcessHandle> relays() throws InterruptedException {
        Thread.sleep(100);
        return ProcessHandle.current().descendants().filter(p -> p.info().command()
                .map(c -> c.endsWith("aasm-container-relay")).orElse(false)).toList();
    }
}
