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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
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
        byte[] preamble = new byte[32];
        new SecureRandom().nextBytes(preamble);
        Path socket = s.resolve("session.sock");
        try (ServerSocketChannel session = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
             ServerSocketChannel direct = ServerSocketChannel.open()) {
            session.bind(UnixDomainSocketAddress.of(socket));
            direct.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            direct.configureBlocking(false);
            int port = ((InetSocketAddress) direct.getLocalAddress()).getPort();
            int proxy = TransportMediation.DEFAULT_PORT;
            String action = "echo " + THROUGH + " > /dev/tcp/127.0.0.1/" + proxy + "; echo " + AROUND
                    + " > /dev/tcp/127.0.0.1/" + port + "; echo " + AROUND + " > /dev/tcp/10.0.2.2/" + port;
            Arrival through = new Arrival(session);
            through.start();
            ExitDisposition d = runner.run(spec(action, proxy), new RelayEndpoint(socket, preamble),
                    Map.of("HTTP_PROXY", "http://127.0.0.1:" + proxy));
            byte[] got = through.await();
            boolean control = got.length >= preamble.length + THROUGH.length()
                    && Arrays.equals(Arrays.copyOf(got, preamble.length), preamble)
                    && new String(got, preamble.length, got.length - preamble.length, StandardCharsets.ISO_8859_1)
                    .startsWith(THROUGH);
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

    /** Accepts one connection on the session stand-in and keeps what arrives (at most 4 KiB). */
    private static final class Arrival extends Thread {
        private final ServerSocketChannel server;
        private final ByteArrayOutputStream got = new ByteArrayOutputStream();

        Arrival(ServerSocketChannel server) {
            super("aasm-vm-relay-probe");
            setDaemon(true);
            this.server = server;
        }

        @Override
        public void run() {
            try (SocketChannel c = server.accept()) {
                ByteBuffer b = ByteBuffer.allocate(4096);
                while (b.hasRemaining() && c.read(b) > 0) {
                    // until the guest's side ends
                }
                synchronized (got) {
                    got.write(b.array(), 0, b.position());
                }
            } catch (IOException e) {
                // closed: nothing (more) arrived
            }
        }

        /** Called after the launch ended: what was sent has been relayed by then, give the relay a moment. */
        byte[] await() throws InterruptedException, IOException {
            join(5_000);
            server.close(); // a connection that never came: the accept ends
            join(1000);
            synchronized (got) {
                return got.toByteArray();
            }
        }
    }
}
