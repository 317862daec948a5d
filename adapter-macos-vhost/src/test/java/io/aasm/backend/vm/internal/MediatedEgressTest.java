package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.TransportMediation;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Egress from real guests through the proxy port (PROTOCOL.md, "Egress"): the agent listens on the guest's
 * loopback and the host joins each connection to the launch's session, preamble first. The session here is a
 * stand-in the test owns (the proxy's own admission, 403 for an ungranted host, is the mediation family's in
 * the distribution's MediationIT). The actor is a grandchild; every denial has its control in the same guest.
 */
class MediatedEgressTest {
    static final int PORT = TransportMediation.DEFAULT_PORT;
    static final Map<String, String> PROXY_ENV = Map.of("HTTP_PROXY", "http://127.0.0.1:" + PORT);

    @TempDir
    Path dir;

    static ExecutionSpec spec(String action, Path cwd, TransportMediation t) {
        // the wall clock makes a stalled stream fail the test instead of hanging it
        List<ControlRequirement> reqs = List.of(Guests.read(cwd.toString()), Guests.write(cwd.toString()),
                ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                        new EgressGrant(Protocol.TCP, "granted.test", 443, 443)))),
                ControlRequirement.strict(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(),
                        OptionalLong.empty(), OptionalLong.of(120), OptionalLong.empty(), OptionalLong.empty(),
                        OptionalLong.empty())));
        return new ExecutionSpec("/bin/sh", List.of("-c", "/bin/bash -c '" + action + "; :'; :"), cwd.toString(),
                IdentityRef.anonymous(), reqs, Map.of("PATH", "/usr/bin:/bin"), CredentialPosture.none(),
                new Stdio.Inherit(), List.of(), t);
    }

    static TransportMediation mediated() {
        return TransportMediation.mediated(PORT, "test");
    }

    @Test
    void bytesReachTheSessionPreambleFirstAndItsAnswerReachesTheProgram() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        byte[] up = new byte[1 << 20];
        byte[] down = new byte[1 << 20];
        new SecureRandom().nextBytes(up);
        new SecureRandom().nextBytes(down);
        Files.write(out.resolve("up"), up);
        // more than the credit window each way: the transfer only completes if acknowledgements flow
        try (SessionStandIn session = new SessionStandIn(dir, 32 + up.length, (c, got) -> {
            ByteBuffer b = ByteBuffer.wrap(down);
            while (b.hasRemaining()) {
                c.write(b);
            }
        })) {
            String action = "exec 3<>/dev/tcp/127.0.0.1/" + PORT + "; cat up >&3; cat <&3 > down; "
                    + "echo \"$HTTP_PROXY\" > env";
            ExitDisposition d = Guests.backend().runMediated(spec(action, out, mediated()), session.endpoint(),
                    PROXY_ENV, (b, o, l) -> { });
            assertEquals(new ExitDisposition.Exited(0), d);
            List<byte[]> got = session.arrivals(1, 10_000);
            assertEquals(1, got.size());
            assertTrue(session.preambleThen(got.get(0), up), "the session did not get the preamble, then the "
                    + "program's bytes");
            assertArrayEquals(down, Files.readAllBytes(out.resolve("down")), "the session's answer did not reach "
                    + "the program unchanged");
            assertEquals("http://127.0.0.1:" + PORT + "\n", Files.readString(out.resolve("env")));
        }
    }

    @Test
    void aroundTheProxyPortNothingArrivesThroughItTheSameBytesDo() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        byte[] through = "through\n".getBytes(StandardCharsets.US_ASCII);
        try (SessionStandIn session = new SessionStandIn(dir, 32 + through.length, (c, got) -> { });
             ServerSocketChannel tcp = ServerSocketChannel.open();
             DatagramChannel udp = DatagramChannel.open()) {
            tcp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            tcp.configureBlocking(false);
            udp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            udp.configureBlocking(false);
            int t = ((InetSocketAddress) tcp.getLocalAddress()).getPort();
            int u = ((InetSocketAddress) udp.getLocalAddress()).getPort();
            String around = "echo around > /dev/tcp/127.0.0.1/" + t + "; echo around > /dev/tcp/10.0.2.2/" + t
                    + "; echo around > /dev/udp/127.0.0.1/" + u + "; echo around > /dev/udp/10.0.2.2/" + u;
            String action = around + "; echo through > /dev/tcp/127.0.0.1/" + PORT;
            Guests.backend().runMediated(spec(action, out, mediated()), session.endpoint(), PROXY_ENV, (b, o, l) -> { });
            List<byte[]> got = session.arrivals(1, 10_000);
            assertEquals(1, got.size(), "control: the connection through the proxy port did not arrive");
            assertTrue(session.preambleThen(got.get(0), through));
            try (SocketChannel c = tcp.accept()) {
                assertNull(c, "a TCP connection around the proxy port reached the host");
            }
            assertNull(udp.receive(ByteBuffer.allocate(64)), "a UDP datagram reached the host");
        }
    }

    @Test
    void aGrantWithoutMediationIsRefusedAndNothingStarts() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        LaunchException e = assertThrows(LaunchException.class, () -> Guests.backend().runDirect(spec(
                "touch started", out, TransportMediation.off("--no-proxy was given"))));
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED, e.kind());
        assertTrue(e.getMessage().contains("drop --no-proxy"), e.getMessage());
        assertTrue(Files.notExists(out.resolve("started")));
        // control: the same spec mediated starts (and its action runs)
        try (SessionStandIn session = new SessionStandIn(dir, 0, (c, got) -> { })) {
            Guests.backend().runMediated(spec("touch started", out, mediated()), session.endpoint(), PROXY_ENV,
                    (b, o, l) -> { });
        }
        assertTrue(Files.exists(out.resolve("started")));
    }

    @Test
    void aSessionThatCannotBeReachedEndsTheProgramsConnection() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        try (SessionStandIn session = new SessionStandIn(dir, 0, (c, got) -> { })) {
            session.close(); // nothing listens at the endpoint any more
            String action = "exec 3<>/dev/tcp/127.0.0.1/" + PORT + " && echo connected; cat <&3; echo ended";
            ExitDisposition d = Guests.backend().runMediated(spec(action, out, mediated()), session.endpoint(),
                    PROXY_ENV, (b, o, l) -> stdout.write(b, o, l));
            assertEquals(new ExitDisposition.Exited(0), d);
        }
        assertEquals("connected\nended\n", stdout.toString(StandardCharsets.UTF_8));
    }
}
