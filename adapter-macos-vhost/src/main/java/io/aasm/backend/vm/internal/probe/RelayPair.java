package io.aasm.backend.vm.internal.probe;

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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The mediated-egress pair in one guest on this host, its plan lowered from a host-name grant with mediation
 * decided. The probe owns both ends: a unix listener standing in for the mediation session (with its own
 * preamble) and a TCP listener on this host. A grandchild connects through the proxy port (the granted way,
 * the control: its bytes must arrive at the stand-in after the preamble) and then straight at the listener
 * on 127.0.0.1 and on 10.0.2.2 (where a QEMU user-mode network would lead to the host's loopback): the way
 * around the proxy, the denial, which must reach nothing.
 */
public final class RelayPair {
    static final String THROUGH = "aasm-probe-through-proxy";
    static final String AROUND = "aasm-probe-around-proxy";

    /** Runs a spec in a guest whose proxy port leads to {@code endpoint}. */
    public interface MediatedRunner {
        ExitDisposition run(ExecutionSpec spec, RelayEndpoint endpoint, Map<String, String> environment)
                throws LaunchException;
    }

    private RelayPair() {
    }

    static ProbeResult run(MediatedRunner runner, Path s) throws IOException, LaunchException, InterruptedException {
        try (SessionStandIn session = SessionStandIn.open(s.resolve("session.sock"), "aasm-vm-relay-probe");
             ServerSocketChannel direct = ServerSocketChannel.open()) {
            direct.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            direct.configureBlocking(false);
            int port = ((InetSocketAddress) direct.getLocalAddress()).getPort();
            int proxy = TransportMediation.DEFAULT_PORT;
            String action = "echo " + THROUGH + " > /dev/tcp/127.0.0.1/" + proxy + "; echo " + AROUND
                    + " > /dev/tcp/127.0.0.1/" + port + "; echo " + AROUND + " > /dev/tcp/10.0.2.2/" + port;
            ExitDisposition d = runner.run(spec(action, proxy), session.endpoint(),
                    Map.of("HTTP_PROXY", "http://127.0.0.1:" + proxy));
            // called after the launch ended: what was sent has been relayed by then, give the relay a moment
            boolean control = session.carried(THROUGH, 5_000);
            boolean escaped;
            try (SocketChannel c = direct.accept()) {
                escaped = c != null;
            }
            return VmProbeSuite.verdict(control, escaped, "TCP connect around the proxy port (127.0.0.1 and 10.0.2.2) "
                    + "from a mediated guest, beside the same connection through the proxy port to a session stand-in "
                    + "the probe owns", d, d);
        }
    }

    /** The working directory is a system folder: the probe's scratch folder is not shared with the guest. */
    static ExecutionSpec spec(String action, int proxy) {
        List<ControlRequirement> reqs = List.of(VmProbeSuite.systemRead(), ControlRequirement.strict(
                CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(new EgressGrant(Protocol.TCP, "probe.invalid",
                        443, 443)))));
        return new ExecutionSpec("/bin/sh", List.of("-c", "/bin/bash -c '" + action + "; :'; :"), "/usr",
                IdentityRef.anonymous(), reqs, Map.of("PATH", "/usr/bin:/bin"), CredentialPosture.none(),
                new Stdio.Inherit(), List.of(), TransportMediation.mediated(proxy, "the relay probe"));
    }
}
