package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aasm.backend.landlockseccomp.internal.kernel.InjectProbe;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LOOPBACK_INJECT without a decision filter (a plan with no SECCOMP record): the trap is a filter of its own and the
 * relay receives its notifications itself (PROTOCOL.md, "Injection"). The grandchild (python3) connects; the effects
 * are at a listener this test owns and in the kernel's word about the program's socket (SO_NETNS_COOKIE).
 */
class LauncherInjectTest {
    @TempDir
    Path tmp;

    /** Counts connections; answers each "got:&lt;bytes read&gt;" once the client half-closed. */
    static final class Echo implements AutoCloseable {
        final ServerSocket server;
        final AtomicInteger accepted = new AtomicInteger();

        Echo() throws Exception {
            server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
            CompletableFuture.runAsync(() -> {
                while (!server.isClosed()) {
                    try (Socket c = server.accept(); InputStream in = c.getInputStream();
                         OutputStream out = c.getOutputStream()) {
                        accepted.incrementAndGet();
                        out.write(("got:" + in.readAllBytes().length).getBytes(StandardCharsets.US_ASCII));
                    } catch (Exception e) {
                        return; // closed
                    }
                }
            });
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
    }

    private String run(boolean inject, String kase, int target, int granted) throws Exception {
        Path script = tmp.resolve("probe.py");
        Files.writeString(script, InjectProbe.SCRIPT);
        Path out = tmp.resolve("out");
        Files.deleteIfExists(out);
        PlanMessage.Builder plan = LauncherFixture.sh("/bin/sh -c '/usr/bin/python3 " + script + " " + kase + " "
                + target + " " + out + " 0; :'; :").namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                .relayTcpPort(granted).noNewPrivs();
        if (inject) {
            plan.loopbackInject();
        }
        LauncherFixture.Result r = LauncherFixture.run(plan.build(), tmp);
        assertEquals(0, r.code(), r.toString());
        return LauncherFixture.read(out);
    }

    @Test
    void aFilterOfItsOwnServedByTheRelayReachesTheGrantedPort() throws Exception {
        try (Echo at = new Echo()) {
            assertEquals("ok True got:5", run(true, "plain", at.port(), at.port()));
            // control: the same plan without the record connects through the relay, with the program's own socket
            assertEquals("ok False got:5", run(false, "plain", at.port(), at.port()));
            assertEquals(2, at.accepted.get());
        }
    }

    @Test
    void anUngrantedPortReachesNothing() throws Exception {
        try (Echo granted = new Echo(); Echo other = new Echo()) {
            assertEquals("errno ECONNREFUSED", run(true, "errno", other.port(), granted.port()));
            assertEquals(0, other.accepted.get(), "no connection reached the ungranted listener");
            // control: the one grant that differs
            assertEquals("ok True got:5", run(true, "plain", other.port(), other.port()));
            assertEquals(1, other.accepted.get());
        }
    }
}
