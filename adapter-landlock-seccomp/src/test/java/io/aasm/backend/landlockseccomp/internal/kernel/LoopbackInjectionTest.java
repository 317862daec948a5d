package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.RelayBulkTransferTest.egress;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.lower.LoopbackPath;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Granted loopback TCP ports reached by injection (PROTOCOL.md, "Injection"): the grandchild (python3) connects,
 * and the effects are asserted at listeners this test owns on the host's loopback (connections counted, bytes
 * echoed) and by the kernel's word inside the program (SO_NETNS_COOKIE: the connected socket belongs to the host's
 * namespace). Each denial has a control differing by one grant; the relay/injection choice is the system property
 * the Java side reads when it lowers the plan.
 */
class LoopbackInjectionTest {
    @TempDir
    Path tmp;

    /** Accepts every connection, reads to end of file, answers "got:&lt;bytes&gt;" and closes; counts connections. */
    static final class Echo implements AutoCloseable {
        final ServerSocketChannel server;
        final AtomicInteger accepted = new AtomicInteger();
        final int port;

        Echo(InetAddress at) throws Exception {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(at, 0));
            port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            CompletableFuture.runAsync(this::serve);
        }

        private void serve() {
            while (server.isOpen()) {
                try (SocketChannel c = server.accept()) {
                    accepted.incrementAndGet();
                    ByteBuffer b = ByteBuffer.allocate(1 << 16);
                    long n = 0;
                    int k;
                    while ((k = c.read(b)) >= 0) {
                        n += k;
                        b.clear();
                    }
                    c.write(ByteBuffer.wrap(("got:" + n).getBytes(StandardCharsets.US_ASCII)));
                } catch (Exception e) {
                    return; // closed
                }
            }
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
    }

    static EgressGrant tcp(int port) {
        return new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, port, port);
    }

    interface Action<T> {
        T run() throws Exception;
    }

    /** Runs (plans) under the given loopback path: the system property the Java side reads when it lowers a plan. */
    static <T> T inMode(String mode, Action<T> action) throws Exception {
        synchronized (LoopbackPath.class) {
            String old = System.getProperty(LoopbackPath.PROPERTY);
            System.setProperty(LoopbackPath.PROPERTY, mode);
            try {
                return action.run();
            } finally {
                if (old == null) {
                    System.clearProperty(LoopbackPath.PROPERTY);
                } else {
                    System.setProperty(LoopbackPath.PROPERTY, old);
                }
            }
        }
    }

    /** Runs the probe case under the given loopback path; returns its output line ("" when it wrote none). */
    String probe(String mode, String kase, int port, int other, ControlRequirement... reqs) throws Exception {
        return probe(mode, kase, port, other, new ArrayList<>(), reqs);
    }

    /** The same, collecting the launch's run-time decision records into {@code decisions}. */
    String probe(String mode, String kase, int port, int other, List<EvidenceRecord> decisions,
                 ControlRequirement... reqs) throws Exception {
        Path script = tmp.resolve("probe.py");
        Files.writeString(script, InjectProbe.SCRIPT);
        Path out = tmp.resolve("out-" + kase);
        Files.deleteIfExists(out);
        var e = inMode(mode, () -> Harness.shared().start(Harness.grandchild("/bin/bash", "/usr/bin/python3 " + script
                + " " + kase + " " + port + " " + out + " " + other, tmp, Map.of(), List.of(reqs))));
        e.await();
        e.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.DECISION
                && r.detail().contains("during the run") && r.domain().isPresent()).forEach(decisions::add);
        return Files.exists(out) ? Files.readString(out) : "";
    }

    @Test
    void aGrantedPortIsReachedThroughASocketOfTheHostsNamespace() throws Exception {
        try (Echo at = new Echo(InetAddress.getLoopbackAddress())) {
            assertEquals("ok True got:5", probe("inject", "plain", at.port, 0, egress(tcp(at.port))));
            // control: the relay (the one setting that differs) also reaches it, with the program's own socket
            assertEquals("ok False got:5", probe("relay", "plain", at.port, 0, egress(tcp(at.port))));
            assertEquals(2, at.accepted.get());
        }
    }

    @Test
    void sixtyFourMebibytesEachWayCrossAnInjectedSocketIntact() throws Exception {
        Path out = tmp.resolve("bulk-out");
        Path script = tmp.resolve("bulk.py");
        Files.writeString(script, BulkPeer.CLIENT);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            String action = "/usr/bin/python3 " + script + " " + port + " " + RelayBulkTransferTest.SIZE + " " + out;
            {
                var handle = inMode("inject", () -> Harness.shared().start(Harness.grandchild("/bin/bash", action, tmp,
                        Map.of(), List.of(egress(tcp(port))))));
                CompletableFuture<BulkPeer.Result> at = CompletableFuture.supplyAsync(() -> {
                    try (SocketChannel c = server.accept()) {
                        return BulkPeer.exchange(c, RelayBulkTransferTest.SIZE);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                RelayBulkTransferTest.assertIntact(RelayBulkTransferTest.settle(handle, at), out);
                // control: without the grant (the one statement that differs) nothing reaches the server
                Files.delete(out);
                server.configureBlocking(false);
                inMode("inject", () -> Harness.shared().run(Harness.grandchild("/bin/bash", action, tmp, Map.of(),
                        List.of(Harness.req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain())))));
                assertNull(server.accept(), "without the grant no connection reaches the server");
                assertFalse(Files.exists(out), "and the program could not complete an exchange");
            }
        }
    }

    @Test
    void inAPidNamespaceTheRelayFindsTheCaller() throws Exception {
        // a credential statement gives the launch its own pid namespace: init then sees other pids than the relay
        try (Echo at = new Echo(InetAddress.getLoopbackAddress())) {
            assertEquals("ok True got:5", probe("inject", "plain", at.port, 0, egress(tcp(at.port)),
                    Harness.req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of()))));
            assertEquals(1, at.accepted.get());
        }
    }

    @Test
    void ipv6LoopbackIsInjectedToo() throws Exception {
        try (Echo at = new Echo(InetAddress.getByName("::1"))) {
            assertEquals("ok True got:5", probe("inject", "v6", at.port, 0, egress(tcp(at.port))));
            assertEquals(1, at.accepted.get());
        }
    }

    @Test
    void anUngrantedPortReachesNothingAndFailsAsThroughTheRelay() throws Exception {
        try (Echo granted = new Echo(InetAddress.getLoopbackAddress());
             Echo other = new Echo(InetAddress.getLoopbackAddress())) {
            String injected = probe("inject", "errno", other.port, 0, egress(tcp(granted.port)));
            String relayed = probe("relay", "errno", other.port, 0, egress(tcp(granted.port)));
            assertEquals("errno ECONNREFUSED", injected, "nothing listens there inside the namespace");
            assertEquals(relayed, injected, "the same errno as through the relay");
            assertEquals(0, other.accepted.get(), "no connection reached the ungranted listener");
            // control: granting that port too (the one grant that differs) reaches it
            assertEquals("ok True got:5", probe("inject", "plain", other.port, 0, egress(tcp(granted.port),
                    tcp(other.port))));
            assertEquals(1, other.accepted.get());
        }
    }

    @Test
    void aNonBlockingConnectKeepsItsFlagsAndItsAnswer() throws Exception {
        try (Echo at = new Echo(InetAddress.getLoopbackAddress())) {
            String[] r = probe("inject", "nonblock", at.port, 0, egress(tcp(at.port))).split(" ");
            assertEquals(7, r.length, String.join(" ", r));
            assertTrue(r[1].equals("EINPROGRESS") || r[1].equals("0"), "connect answered " + r[1]);
            assertEquals("0", r[2], "SO_ERROR after POLLOUT");
            assertEquals("True", r[3], "the injected socket is still non-blocking");
            assertEquals("True", r[4], "and still close-on-exec (Python's sockets are)");
            assertEquals("True", r[5], "the socket was injected");
            assertEquals("got:5", r[6]);
        }
    }

    @Test
    void optionsSetBeforeConnectAreCarriedOver() throws Exception {
        try (Echo at = new Echo(InetAddress.getLoopbackAddress())) {
            assertEquals("options True 1 1 77 got:5", probe("inject", "options", at.port, 0, egress(tcp(at.port))));
        }
    }

    @Test
    void boundAndDatagramSocketsAreNotReplaced() throws Exception {
        try (Echo at = new Echo(InetAddress.getLoopbackAddress())) {
            // a bind before connect keeps the program's own socket, which still reaches the port through the relay
            assertEquals("bound False got:5", probe("inject", "bound", at.port, 0, egress(tcp(at.port))));
            assertEquals(1, at.accepted.get());
            assertEquals("udp False", probe("inject", "udp", at.port, 0, egress(tcp(at.port))));
        }
    }

    @Test
    void anInjectedSocketCannotBeTurnedTowardsAnotherPort() throws Exception {
        try (Echo granted = new Echo(InetAddress.getLoopbackAddress());
             Echo other = new Echo(InetAddress.getLoopbackAddress())) {
            assertEquals("escape True EPERM EISCONN EPERM EPERM got:5",
                    probe("inject", "escape", granted.port, other.port, egress(tcp(granted.port))));
            assertEquals(0, other.accepted.get(), "no disconnect, reconnect or Fast Open send reached the other port");
            assertEquals(1, granted.accepted.get());
        }
    }

    @Test
    void ioUringStaysDeniedSoNoConnectBypassesTheTrap() throws Exception {
        try (Echo at = new Echo(InetAddress.getLoopbackAddress())) {
            assertEquals("uring EPERM", probe("inject", "uring", at.port, 0, egress(tcp(at.port))));
            // control: without the egress statement (the one that differs; nothing else is confined) io_uring is
            // not denied: the bad argument is what fails
            assertEquals("uring EFAULT", probe("inject", "uring", at.port, 0));
        }
    }

    @Test
    void deniedCallsAreStillRecordedBesideTheInjectedConnect() throws Exception {
        try (Echo at = new Echo(InetAddress.getLoopbackAddress())) {
            List<EvidenceRecord> during = new ArrayList<>();
            // one filter holds both: the decision filter's denials and the connect trap share its listener
            assertEquals("recorded EPERM True got:5", probe("inject", "recorded", at.port, 0, during,
                    egress(tcp(at.port))));
            assertEquals(1, during.size(), during.toString());
            String detail = during.get(0).detail();
            assertTrue(detail.startsWith("1 call(s) denied") && detail.contains("socket x1"), detail);
            assertFalse(detail.contains("connect"), "the injected connect is no denial: " + detail);
            // control: the relay path records the same denial
            List<EvidenceRecord> relayed = new ArrayList<>();
            assertEquals("recorded EPERM False got:5", probe("relay", "recorded", at.port, 0, relayed,
                    egress(tcp(at.port))));
            assertEquals(1, relayed.size(), relayed.toString());
        }
    }

    @Test
    void inAPidNamespaceADenialTheRelayAnsweredNamesThePidTheProgramSees() throws Exception {
        // the relay receives every notification (in the host's pid namespace) and sends init the denial's record with
        // the caller's pid as init's namespace numbers it, as init recorded it when it received the denials itself
        try (Echo at = new Echo(InetAddress.getLoopbackAddress())) {
            for (String mode : List.of("inject", "relay")) { // control: the relay path, where init receives
                List<EvidenceRecord> during = new ArrayList<>();
                String out = probe(mode, "recordedpid", at.port, 0, during, egress(tcp(at.port)),
                        Harness.req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())));
                String injected = mode.equals("inject") ? "True" : "False"; // as python prints it
                assertTrue(out.startsWith("recorded EPERM " + injected + " got:5 pid:"), mode + ": " + out);
                String pid = out.substring(out.indexOf("pid:") + 4);
                assertEquals(1, during.size(), mode + ": " + during);
                String detail = during.get(0).detail();
                assertTrue(detail.matches("(?s).*socket\\([^)]*\\) by pid " + pid + "\\b.*"), mode + ": " + detail);
            }
        }
    }

    @Test
    void thePlanSaysWhichPathItTook() throws Exception {
        var b = Harness.shared().backend;
        ControlRequirement r = egress(tcp(5000));
        var spec = Harness.grandchild("/bin/sh", "true", tmp, Map.of(), List.of(r));
        assertTrue(inMode("inject", () -> b.plan(spec).steps(r).stream().anyMatch(s -> s.startsWith("injection:"))));
        assertFalse(inMode("relay", () -> b.plan(spec).steps(r).stream().anyMatch(s -> s.startsWith("injection:"))));
    }

    @Test
    void theHostSideIsTheProgramsOwnAndEndsWithTheTree() throws Exception {
        Harness h = Harness.shared();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            Path out = tmp.resolve("reply");
            // as NetworkConfinementTest's relay test: hello, the service's answer, a daemon left holding the socket
            String action = "exec 3<>/dev/tcp/127.0.0.1/" + port + "; echo hello >&3; read x <&3; echo $x > " + out
                    + "; (setsid sleep 600 <&3 >&3 &)";
            var handle = inMode("inject", () -> h.start(Harness.grandchild("/bin/bash", action, tmp, Map.of(),
                    List.of(egress(tcp(port))))));
            try (SocketChannel c = server.accept()) {
                c.socket().setSoTimeout(20_000);
                var in = new java.io.BufferedReader(new java.io.InputStreamReader(c.socket().getInputStream(),
                        StandardCharsets.US_ASCII));
                assertEquals("hello", in.readLine());
                int peerPort = ((InetSocketAddress) c.getRemoteAddress()).getPort();
                long owner = HostSockets.ownerOfLoopbackConnection(peerPort, port).orElseThrow(
                        () -> new AssertionError("no process holds the host side of the connection"));
                Path proc = Path.of("/proc/" + owner);
                assertEquals("bash", Files.readString(proc.resolve("comm")).strip(),
                        "the host side is the program's own descriptor: no relay in the byte path");
                assertFalse(Files.readSymbolicLink(Path.of("/proc/self/ns/net")).equals(
                        Files.readSymbolicLink(proc.resolve("ns/net"))), "while the program stays in its namespace");
                c.socket().getOutputStream().write("answer\n".getBytes(StandardCharsets.US_ASCII));
                handle.await();
                assertEquals("answer\n", Files.readString(out), "the service's answer reached the program");
                assertEquals(-1, in.read(), "the daemon that held the socket ended with the tree: end of file");
            }
        }
    }
}
