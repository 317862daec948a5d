package io.aasm.backend.container.internal;

import static io.aasm.backend.container.internal.Harness.req;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.MediationTally;
import io.aasm.ports.transport.RelayEndpoint;
import io.aasm.ports.transport.TransportMediation;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container's transport relay alone (no proxy), paired against direct loopback in the same run: the same
 * client (benchmarks/mediation/bench.py, "direct" mode) on the host against a TCP server of this JVM, and in a
 * mediated container against 127.0.0.1:3128, where the relay carries it to a unix server of this JVM speaking the
 * same protocol after the relay's capability and the session's preamble. This server never sends the hand-off
 * protocol's marker, so the relay reads its answers in dialog mode (recvmsg, 4 KiB at a time), a slower path
 * than a real proxy's tunnel takes (bench.py measures that one). Rounds alternate host and container. Not a test (never run by
 * the build; no time is asserted): {@code mvn -pl adapter-container test -Dtest=RelayCostBench}, with
 * {@code -Daasm.bench.rounds=5 -Daasm.bench.conns=100 -Daasm.bench.mib=128}.
 */
class RelayCostBench {
    @TempDir
    Path tmp;

    @Test
    void relayAgainstDirectLoopback() throws Exception {
        int rounds = Integer.getInteger("aasm.bench.rounds", 5);
        int conns = Integer.getInteger("aasm.bench.conns", 100);
        long size = Long.getLong("aasm.bench.mib", 128L) << 20;
        Path script = Path.of("..", "benchmarks", "mediation", "bench.py").toAbsolutePath().normalize();
        ContainerBackend b = Harness.shared().backend;
        double[] load0 = load();
        List<Double> dLat = new ArrayList<>();
        List<Double> rLat = new ArrayList<>();
        List<Double> dBulk = new ArrayList<>();
        List<Double> rBulk = new ArrayList<>();
        try (Server tcp = new Server(ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                0)), 0); Server unix = Server.unix(tmp.resolve("relay.sock"))) {
            int port = ((InetSocketAddress) tcp.server.getLocalAddress()).getPort();
            for (int r = 0; r < rounds; r++) {
                Path out = tmp.resolve("direct-" + r + ".json");
                Process p = new ProcessBuilder("/usr/bin/python3", script.toString(), "client", Integer.toString(port),
                        Integer.toString(conns), Long.toString(size), "direct").redirectOutput(out.toFile()).start();
                p.waitFor();
                add(out, dLat, dBulk);
                Path in = tmp.resolve("relay-" + r + ".json");
                String action = "/usr/bin/python3 " + script + " client 3128 " + conns + " " + size + " direct > " + in;
                ExecutionSpec spec = new ExecutionSpec("/bin/sh", List.of("-c", action), tmp.toString(),
                        IdentityRef.anonymous(), List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                        new EgressGrant(Protocol.TCP, "bench.test", 443, 443))))), Map.of("PATH", "/usr/bin:/bin"),
                        CredentialPosture.none(), new Stdio.Inherit(), List.of(), TransportMediation.mediated(3128, "bench"));
                try (var prepared = b.prepare(Harness.plan(b, spec).withMediation(unix.session()))) {
                    prepared.spawn().await();
                }
                add(in, rLat, rBulk);
            }
        }
        double[] load1 = load();
        System.out.printf("[relay-bench] load %.1f -> %.1f; rounds %d, %d connections and 3 x %d MiB per round%n",
                load0[0], load1[0], rounds, conns, size >> 20);
        System.out.printf("[relay-bench] connect+1-byte answer median: direct %.3f ms, relay %.3f ms (added %.3f ms)%n",
                median(dLat), median(rLat), median(rLat) - median(dLat));
        System.out.printf("[relay-bench] bulk median: direct %.0f MB/s, relay %.0f MB/s (ratio %.2f)%n",
                median(dBulk), median(rBulk), median(rBulk) / median(dBulk));
    }

    private static void add(Path json, List<Double> lat, List<Double> bulk) throws IOException {
        JsonNode n = new ObjectMapper().readTree(Files.readString(json)).path("direct");
        n.path("latency_ms").forEach(x -> lat.add(x.asDouble()));
        n.path("mb_s").forEach(x -> bulk.add(x.asDouble()));
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    private static double[] load() {
        return new double[] {ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()};
    }

    /** bench.py's server protocol ('L': one byte back; 'B' + 8-byte size: that many bytes), after a preamble. */
    private static final class Server implements AutoCloseable {
        final ServerSocketChannel server;
        final int preamble;
        final byte[] secret = new byte[32];
        Path socket;

        Server(ServerSocketChannel server, int preamble) {
            this.server = server;
            this.preamble = preamble;
            new SecureRandom().nextBytes(secret);
            Thread t = new Thread(this::serve, "bench-server");
            t.setDaemon(true);
            t.start();
        }

        static Server unix(Path path) throws IOException {
            // the relay's hand-off capability (4 bytes), then the 32-byte preamble
            Server s = new Server(ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(
                    UnixDomainSocketAddress.of(path)), 4 + 32);
            s.socket = path;
            return s;
        }

        MediationSession session() {
            return new MediationSession() {
                public String launchId() {
                    return "bench";
                }

                public Optional<RelayEndpoint> relay() {
                    return Optional.of(new RelayEndpoint(socket, secret));
                }

                public Map<String, String> environment() {
                    return Map.of();
                }

                public List<EgressDecision> decisions() {
                    return List.of();
                }

                public MediationTally tally() {
                    return new MediationTally(0, 0, 0, 0);
                }

                public Optional<Path> decisionLog() {
                    return Optional.empty();
                }

                public void close() {
                }
            };
        }

        private void serve() {
            while (server.isOpen()) {
                try {
                    SocketChannel c = server.accept();
                    Thread t = new Thread(() -> answer(c));
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void answer(SocketChannel c) {
            try (c) {
                ByteBuffer head = ByteBuffer.allocate(preamble + 1);
                while (head.hasRemaining() && c.read(head) >= 0) {
                    // the preamble (relay only) and the command byte
                }
                byte cmd = head.get(preamble);
                if (cmd == 'L') {
                    c.write(ByteBuffer.wrap(new byte[] {'!'}));
                } else if (cmd == 'B') {
                    ByteBuffer n = ByteBuffer.allocate(8);
                    while (n.hasRemaining() && c.read(n) >= 0) {
                        // the size
                    }
                    long left = n.flip().getLong();
                    ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
                    while (left > 0) {
                        chunk.clear().limit((int) Math.min(left, chunk.capacity()));
                        left -= c.write(chunk);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the client went away
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
