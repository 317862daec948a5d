package io.aasm.backend.container.internal;

import static io.aasm.backend.container.internal.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.EgressVerdict;
import io.aasm.ports.transport.TransportMediation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A connection the program made just before it ended (RELAY.md, relay role step 6): its bytes still reach the
 * destination. Made deterministic by holding the relay still: the test stops the relay (SIGSTOP) while it waits in
 * its poll loop, lets the program connect, write and exit, waits until the supervisor closed the relay's lifeline
 * (the launch is over), and only then lets the relay run. It then sees the lifeline's end and the waiting
 * connection in the same poll round: a relay without its final pass drops the connection, one with it carries it
 * to the real proxy, which admits and dials it. Control, one difference: the same program towards a port of the
 * same host that no grant names is refused by the proxy and reaches nothing.
 */
class RelayFinalPassTest {
    static final int PROXY_PORT = TransportMediation.DEFAULT_PORT;
    static final String PAYLOAD = "written-just-before-the-end";
    /** poll and ppoll on x86-64, ppoll on aarch64: the relay is waiting in its loop. */
    static final Set<String> POLLING = Set.of("7", "271", "73");

    @TempDir
    Path tmp;

    private EgressDecision lastMoment(Origin origin, int grantedPort) throws Exception {
        ContainerBackend b = Harness.shared().backend;
        Path go = tmp.resolve("go");
        Path waiting = tmp.resolve("waiting");
        String action = "touch " + waiting + "; while [ ! -e " + go + " ]; do sleep 0.01; done; printf \"CONNECT "
                + "bulk.test:" + origin.port() + " HTTP/1.1\\r\\n\\r\\n" + PAYLOAD + "\" > /dev/tcp/127.0.0.1/" + PROXY_PORT;
        ExecutionSpec spec = new ExecutionSpec("/bin/sh", List.of("-c", "/bin/bash -c '" + action + "; :'; :"),
                tmp.toString(), IdentityRef.anonymous(), List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(
                List.of(new EgressGrant(Protocol.TCP, "bulk.test", grantedPort, grantedPort))))),
                Map.of("PATH", "/usr/bin:/bin"), CredentialPosture.none(), new Stdio.Inherit(), List.of(),
                TransportMediation.mediated(PROXY_PORT, "test"));
        try (RealProxy proxy = new RealProxy(tmp, true, new TreeMap<>(Map.of("bulk.test", "127.0.0.2")),
                new EgressGrant(Protocol.TCP, "bulk.test", grantedPort, grantedPort))) {
            CompletableFuture<Void> launch = CompletableFuture.runAsync(() -> {
                try (var prepared = b.prepare(Harness.plan(b, spec).withMediation(proxy.session))) {
                    prepared.spawn().await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // this launch's relay: the one carrying to this session's socket (a probe's relay may run beside it)
            String socket = proxy.session.relay().orElseThrow().socket().toString();
            ProcessHandle relay = await("the relay", () -> MediatedEgressTest.relays().stream()
                    .filter(h -> cmdline(h.pid()).contains(socket)).findFirst().orElse(null));
            long pid = relay.pid();
            await("the program waiting and the relay in its poll loop (syscall " + pid + ")", () -> Files.exists(waiting)
                    && POLLING.contains(syscall(pid)) ? Boolean.TRUE : null);
            String lifeline = Files.readSymbolicLink(Path.of("/proc/" + pid + "/fd/0")).toString();
            signal("-STOP", pid);
            try {
                Files.createFile(go);
                // the program connected, wrote and ended; the supervisor closes the lifeline once the launch is over
                await("the lifeline " + lifeline + " closed", () -> holdsLifeline(lifeline) ? null : Boolean.TRUE);
            } finally {
                signal("-CONT", pid);
            }
            launch.get(60, TimeUnit.SECONDS);
            List<EgressDecision> records = proxy.decisions(1);
            assertEquals(1, records.size(), "the connection reached the proxy (one record): " + records);
            return records.get(0);
        }
    }

    @Test
    void aConnectionMadeJustBeforeTheProgramEndedStillReachesTheServer() throws Exception {
        try (Origin origin = new Origin(0, Long.MAX_VALUE)) {
            EgressDecision d = lastMoment(origin, origin.port());
            Origin.Seen at = origin.seen();
            assertEquals(PAYLOAD.length(), at.received(), "the bytes written just before the end reached the server");
            assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                    PAYLOAD.getBytes(StandardCharsets.US_ASCII))), at.receivedSha256());
            assertEquals(EgressVerdict.ALLOWED, d.verdict(), d.toString());
        }
    }

    @Test
    void theSameConnectionToAPortNoGrantNamesReachesNothing() throws Exception {
        try (Origin origin = new Origin(0, Long.MAX_VALUE)) {
            EgressDecision d = lastMoment(origin, origin.port() == 65535 ? 65534 : origin.port() + 1);
            assertEquals(EgressVerdict.DENIED, d.verdict(), "the final pass carried it to the proxy, which refused "
                    + "it: " + d);
            origin.close();
            assertFalse(origin.reached(), "nothing reached the server");
        }
    }

    private interface Probe<T> {
        T get() throws Exception;
    }

    /** Polls until {@code p} answers (a condition this test waits for, never a fixed sleep), at most 60 s. */
    private static <T> T await(String what, Probe<T> p) throws Exception {
        long end = System.currentTimeMillis() + 60_000;
        for (T v = p.get(); ; v = p.get()) {
            if (v != null) {
                return v;
            }
            assertTrue(System.currentTimeMillis() < end, "timed out waiting for " + what);
            Thread.sleep(5);
        }
    }

    private static String cmdline(long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
        } catch (java.io.IOException gone) {
            return "";
        }
    }

    private static String syscall(long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/syscall")).split(" ")[0].strip();
        } catch (java.io.IOException gone) {
            return "";
        }
    }

    /** Whether this JVM still holds the write end of the relay's lifeline pipe. */
    private static boolean holdsLifeline(String pipe) throws java.io.IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().equals(pipe);
                } catch (java.io.IOException closed) {
                    return false;
                }
            });
        }
    }

    private static void signal(String sig, long pid) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", sig, Long.toString(pid)).inheritIO().start().waitFor());
    }
}
