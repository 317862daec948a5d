package io.aasm.backend.container.internal.probe;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.RelayEndpoint;
import io.aasm.ports.transport.TransportMediation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The mediated-egress pair, in one mediated container on this host (its plan lowered from a host-name grant
 * with mediation decided, the relay started as for any launch). The probe owns both ends: a unix listener
 * standing in for the mediation session (its own preamble) and a TCP listener on every address of this host.
 * A grandchild connects through the relay port (the granted way: the control, which must arrive at the
 * session stand-in, preamble first) and directly to the TCP listener on 127.0.0.1 and on this host's other
 * addresses (the way around the proxy: the denial, which must reach nothing). The direct connection's own
 * control (the same container in the host's network namespace reaches the listener) is the network probe.
 */
public final class RelayProbe {
    static final String THROUGH = "aasm-probe-through-relay";
    static final String AROUND = "aasm-probe-around-relay";

    private RelayProbe() {
    }

    /** {@code runner}: runs a spec in a container with the given relay endpoint as its mediation session. */
    public interface MediatedRunner {
        ExitDisposition run(ExecutionSpec spec, RelayEndpoint endpoint, Map<String, String> environment)
                throws LaunchException;
    }

    public static ProbeResult run(MediatedRunner runner, Path scratchRoot, List<String> hostAddresses) {
        Path s = null;
        try {
            s = Files.createTempDirectory(scratchRoot, "aasm-container-relay-");
            byte[] preamble = new byte[32];
            new SecureRandom().nextBytes(preamble);
            Path socket = s.resolve("relay.sock");
            try (ServerSocketChannel session = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                 ServerSocketChannel direct = ServerSocketChannel.open()) {
                session.bind(UnixDomainSocketAddress.of(socket));
                direct.bind(new InetSocketAddress(0));
                direct.configureBlocking(false);
                int port = ((InetSocketAddress) direct.getLocalAddress()).getPort();
                int relayPort = TransportMediation.DEFAULT_PORT;
                StringBuilder around = new StringBuilder("echo " + AROUND + " > /dev/tcp/127.0.0.1/" + port);
                hostAddresses.forEach(a -> around.append("; echo ").append(AROUND).append(" > /dev/tcp/").append(a)
                        .append('/').append(port));
                String action = "echo " + THROUGH + " > /dev/tcp/127.0.0.1/" + relayPort + "; " + around;
                Reader through = new Reader(session);
                through.start();
                ExitDisposition d = runner.run(spec(action, s, relayPort), new RelayEndpoint(socket, preamble),
                        Map.of("HTTP_PROXY", "http://127.0.0.1:" + relayPort));
                byte[] got = through.await();
                boolean control = got.length >= preamble.length + THROUGH.length()
                        && Arrays.equals(Arrays.copyOf(got, preamble.length), preamble)
                        && new String(got, preamble.length, got.length - preamble.length,
                        java.nio.charset.StandardCharsets.ISO_8859_1).startsWith(THROUGH);
                boolean escaped = reached(direct);
                String what = "TCP connect around the relay (127.0.0.1 and " + hostAddresses + " of this host) "
                        + "from a mediated container, beside the same connection through the relay to a session "
                        + "endpoint the probe owns";
                return ProbeSuite.verdict(control, escaped, what, d, d);
            }
        } catch (IOException | LaunchException | RuntimeException e) {
            return ProbeResult.inconclusive("the transport relay probe could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ProbeResult.inconclusive("interrupted");
        } finally {
            Scratch.delete(s);
        }
    }

    static ExecutionSpec spec(String action, Path cwd, int relayPort) {
        String inner = "/bin/bash -c '" + action + "; :'; :";
        List<ControlRequirement> reqs = List.of(ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS,
                new Scope.Egress(List.of(new EgressGrant(Protocol.TCP, "probe.invalid", 443, 443)))));
        return new ExecutionSpec("/bin/sh", List.of("-c", inner), cwd.toString(), IdentityRef.anonymous(), reqs,
                Map.of("PATH", "/usr/bin:/bin"), CredentialPosture.none(), new Stdio.Inherit(), List.of(),
                TransportMediation.mediated(relayPort, "the relay probe"));
    }

    private static boolean reached(ServerSocketChannel server) throws IOException {
        try (SocketChannel c = server.accept()) {
            return c != null;
        }
    }

    /** Accepts one connection on the session stand-in and keeps what arrives (at most 4 KiB, 15 s). */
    private static final class Reader extends Thread {
        private final ServerSocketChannel server;
        private final ByteArrayOutputStream got = new ByteArrayOutputStream();

        Reader(ServerSocketChannel server) {
            super("aasm-container-relay-probe");
            setDaemon(true);
            this.server = server;
        }

        @Override
        public void run() {
            try (SocketChannel c = server.accept()) {
                ByteBuffer b = ByteBuffer.allocate(4096);
                while (c.read(b) > 0 && b.hasRemaining()) {
                    // until the relay half-closes
                }
                synchronized (got) {
                    got.write(b.array(), 0, b.position());
                }
            } catch (IOException e) {
                // closed: nothing (more) arrived
            }
        }

        byte[] await() throws InterruptedException {
            join(15_000);
            synchronized (got) {
                return got.toByteArray();
            }
        }
    }
}
