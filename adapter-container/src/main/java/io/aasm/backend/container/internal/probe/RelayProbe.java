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
import io.aasm.support.relay.SessionStandIn;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
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
            try (SessionStandIn session = SessionStandIn.open(s.resolve("relay.sock"), "aasm-container-relay-probe");
                 ServerSocketChannel direct = ServerSocketChannel.open()) {
                direct.bind(new InetSocketAddress(0));
                direct.configureBlocking(false);
                int port = ((InetSocketAddress) direct.getLocalAddress()).getPort();
                int relayPort = TransportMediation.DEFAULT_PORT;
                StringBuilder around = new StringBuilder("echo " + AROUND + " > /dev/tcp/127.0.0.1/" + port);
                hostAddresses.forEach(a -> around.append("; echo ").append(AROUND).append(" > /dev/tcp/").append(a)
                        .append('/').append(port));
                String action = "echo " + THROUGH + " > /dev/tcp/127.0.0.1/" + relayPort + "; " + around;
                ExitDisposition d = runner.run(spec(action, s, relayPort), session.endpoint(),
                        Map.of("HTTP_PROXY", "http://127.0.0.1:" + relayPort));
                boolean control = session.carried(THROUGH, 15_000);
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
}
