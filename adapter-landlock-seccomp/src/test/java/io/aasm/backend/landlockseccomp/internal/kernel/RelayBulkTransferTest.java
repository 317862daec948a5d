package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.TransportMediation;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 64 MiB each way at once through the relay, with the program's half-close in the middle, checked by SHA-256 at
 * the server the test owns (BulkPeer): once over a granted loopback port (TCP to TCP) and once over the mediated
 * route (TCP to the session's unix socket, after the preamble). The grandchild (python3) sends and receives.
 * Controls: the same program without the grant (the one statement that differs) reaches no server at all, so
 * the bytes that arrived came through the relay.
 */
class RelayBulkTransferTest {
    static final long SIZE = 64L << 20;
    static final int PROXY_PORT = 3128;
    /** A guard against a hang, not a timing assertion: the transfer takes seconds even on a loaded machine. */
    static final long GUARD_SECONDS = 90;

    @TempDir
    Path tmp;

    private String action(int port, Path out) throws IOException {
        assertTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "the program side needs /usr/bin/python3 "
                + "(.ci/run installs it)");
        Path script = tmp.resolve("bulk.py");
        Files.writeString(script, BulkPeer.CLIENT);
        return "/usr/bin/python3 " + script + " " + port + " " + SIZE + " " + out;
    }

    static ControlRequirement egress(EgressGrant... grants) {
        return req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(grants)));
    }

    /** What the program wrote: sent digest, sent count, received digest, received count, trailer. */
    static void assertIntact(BulkPeer.Result at, Path out) throws IOException {
        String[] p = Files.readString(out).split(" ");
        assertEquals(5, p.length, "the program finished the exchange: " + String.join(" ", p));
        assertEquals(SIZE, at.received(), "every byte the program sent reached the server");
        assertEquals(p[0], at.receivedSha256(), "the program's bytes arrived unaltered");
        assertEquals(Long.toString(SIZE), p[3], "every byte the server sent reached the program");
        assertEquals(at.sentSha256(), p[2], "the server's bytes arrived unaltered");
        assertEquals(at.receivedSha256(), p[4],
                "the server's last word, sent only after the program's half-close reached it, came back");
    }

    @Test
    void sixtyFourMebibytesEachWayCrossAGrantedLoopbackPortIntact() throws Exception {
        Harness h = Harness.shared();
        Path out = tmp.resolve("out");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            EgressGrant grant = new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, port, port);
            // through the relay (LoopbackInjectionTest moves the same bytes through an injected socket)
            var handle = LoopbackInjectionTest.inMode("relay", () -> h.start(Harness.grandchild("/bin/bash",
                    action(port, out), tmp, Map.of(), List.of(egress(grant)))));
            CompletableFuture<BulkPeer.Result> at = CompletableFuture.supplyAsync(() -> {
                try (SocketChannel c = server.accept()) {
                    return BulkPeer.exchange(c, SIZE);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            BulkPeer.Result r = settle(handle, at);
            assertIntact(r, out);

            // control: the same program with egress not granted (the namespace has no way out)
            Files.delete(out);
            server.configureBlocking(false);
            h.run(Harness.grandchild("/bin/bash", action(port, out), tmp, Map.of(),
                    List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()))));
            assertNull(server.accept(), "without the grant no connection reaches the server");
            assertFalse(Files.exists(out), "and the program could not complete an exchange");
        }
    }

    @Test
    void sixtyFourMebibytesEachWayCrossTheMediatedRouteIntactAfterThePreamble() throws Exception {
        LandlockSeccompBackend b = Harness.shared().backend;
        Path out = tmp.resolve("out");
        CompletableFuture<BulkPeer.Result> at = new CompletableFuture<>();
        boolean[] preamble = new boolean[1];
        AtomicInteger connections = new AtomicInteger();
        try (RelayStandIn session = new RelayStandIn(tmp, PROXY_PORT, (matched, c) -> {
            if (connections.incrementAndGet() > 1) {
                return; // only the control's, which must never come
            }
            preamble[0] = matched;
            try {
                at.complete(BulkPeer.exchange(c, SIZE));
            } catch (Exception e) {
                at.completeExceptionally(e);
            }
        })) {
            EgressGrant pypi = new EgressGrant(Protocol.TCP, "pypi.test", 443, 443);
            Execution handle;
            try (var prepared = b.prepare(Harness.plan(b, spec(action(PROXY_PORT, out), tmp, List.of(egress(pypi)),
                    TransportMediation.mediated(PROXY_PORT, "test"))).withMediation(session))) {
                handle = prepared.spawn();
            }
            BulkPeer.Result r = settle(handle, at);
            assertTrue(preamble[0], "the relay wrote the session's preamble before the program's bytes");
            assertIntact(r, out);

            // control: the same program, egress not granted: nothing reaches the session
            Files.delete(out);
            run(b, spec(action(PROXY_PORT, out), tmp, List.of(req(CapabilityDomain.NETWORK_EGRESS,
                    new Scope.WholeDomain())), TransportMediation.notRequested()), session);
            assertEquals(1, connections.get(), "nothing more reached the session");
            assertFalse(Files.exists(out), "and the program could not complete an exchange");
        }
    }

    /** The server's result once the launch has ended; a transfer that hangs ends the launch and fails. */
    static BulkPeer.Result settle(Execution handle, CompletableFuture<BulkPeer.Result> at) throws Exception {
        try {
            return at.get(GUARD_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            handle.terminate(TerminationRequest.IMMEDIATE);
            throw new AssertionError("the transfer did not complete (a lost half-close leaves both ends waiting)", e);
        } finally {
            handle.await();
        }
    }

    static ExecutionSpec spec(String action, Path cwd, List<ControlRequirement> reqs, TransportMediation t) {
        return new ExecutionSpec("/bin/sh", List.of("-c", "/bin/bash -c '" + action + "; :'; :"), cwd.toString(),
                IdentityRef.anonymous(), reqs, Map.of("PATH", "/usr/bin:/bin"), CredentialPosture.none(),
                new Stdio.Inherit(), List.of(), t);
    }

    private static void run(LandlockSeccompBackend b, ExecutionSpec spec, RelayStandIn session) throws Exception {
        try (var prepared = b.prepare(Harness.plan(b, spec).withMediation(session))) {
            prepared.spawn().await();
        }
    }
}
