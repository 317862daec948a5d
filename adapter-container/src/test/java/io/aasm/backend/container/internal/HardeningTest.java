package io.aasm.backend.container.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.container.internal.engine.EngineSocket;
import io.aasm.backend.container.internal.host.LibC;
import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hardened container, seen from inside by a grandchild of the program and checked from outside: a
 * read-only root, no capability, no_new_privs, a seccomp filter, the caller's user, only a loopback of its
 * own, the engine's socket masked in a granted folder, aasm's own state read-only in a write grant, a
 * private /tmp of its own. Each with a control that shows the same action working where it is granted.
 */
class HardeningTest {
    @TempDir
    Path t;

    private Path out() throws IOException {
        return Files.createDirectories(t.resolve("out"));
    }

    @Test
    void theRootIsReadOnlyAndTheProgramHoldsNoAuthority() throws Exception {
        Path out = out();
        Harness.shared().sh("grep -E \"^(Cap|NoNewPrivs|Seccomp:)\" /proc/self/status > " + out + "/status; id -u > " + out
                + "/uid; if echo x > /aasm-root-probe; then echo wrote; else echo denied; fi > " + out + "/root; echo x > "
                + out + "/control", t, Harness.read(t.toString()), Harness.write(out.toString()));
        String status = Files.readString(out.resolve("status"));
        for (String set : List.of("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")) {
            assertTrue(status.matches("(?s).*" + set + ":\\s+0{16}\\s.*"), set + " in\n" + status);
        }
        assertTrue(status.contains("NoNewPrivs:\t1") && status.contains("Seccomp:\t2"), status);
        assertEquals(Integer.toString(LibC.INSTANCE.geteuid()), Files.readString(out.resolve("uid")).strip());
        assertEquals("denied", Files.readString(out.resolve("root")).strip(), "the root is read-only");
        assertTrue(Files.exists(out.resolve("control")), "control: the same write into the write grant worked");
    }

    @Test
    void theContainerHasOnlyItsOwnLoopbackAndNoRouteToTheHosts() throws Exception {
        Path out = out();
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            server.configureBlocking(false);
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            var spec = Harness.grandchild("/bin/bash", "ls /sys/class/net > " + out + "/ifaces; echo x > /dev/tcp/127.0.0.1/"
                    + port, t, Map.of("PATH", "/usr/bin:/bin"), List.of(Harness.req(CapabilityDomain.NETWORK_EGRESS,
                    new Scope.WholeDomain())));
            Harness h = Harness.shared();
            h.run(spec);
            assertEquals("lo", Files.readString(out.resolve("ifaces")).strip());
            assertEquals(null, server.accept(), "nothing reached the host's loopback");
            h.backend.runDirect(spec, ContainerPlan::withHostNetwork);
            try (SocketChannel c = server.accept()) {
                assertTrue(c != null, "control: the same container in the host's network namespace reached it");
            }
        }
    }

    @Test
    void theEnginesSocketIsMaskedInAGrantedFolderWhileAnotherSocketThereIsReachable() throws Exception {
        Harness.requireEngine();
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")),
                "environment cannot host this check: /usr/bin/python3 is missing");
        Path engine = ((EngineSocket.Located.Found) EngineSocket.locate(Optional.empty(), System.getenv())).socket()
                .toRealPath();
        Path out = out();
        Path mine = t.resolve("mine.sock");
        try (ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            listener.bind(UnixDomainSocketAddress.of(mine));
            String py = "import socket,sys\\n"
                    + "def ask(p, msg):\\n"
                    + "    s=socket.socket(socket.AF_UNIX); s.connect(p); s.sendall(msg); s.shutdown(1); return s.recv(4096)\\n"
                    + "for name, p, msg in [(\\\"engine\\\", sys.argv[1], b\\\"GET /_ping HTTP/1.0\\\\r\\\\n\\\\r\\\\n\\\"), "
                    + "(\\\"mine\\\", sys.argv[2], b\\\"hello\\\")]:\\n"
                    + "    try: open(sys.argv[3] + \\\"/\\\" + name, \\\"wb\\\").write(ask(p, msg) or b\\\"sent\\\")\\n"
                    + "    except Exception as e: open(sys.argv[3] + \\\"/\\\" + name, \\\"w\\\").write(repr(e))\\n";
            Files.writeString(t.resolve("ask.py"), py.replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\r", "\\r")
                    .replace("\\\\n", "\\n"));
            Thread accept = new Thread(() -> {
                try (SocketChannel c = listener.accept()) {
                    ByteBuffer b = ByteBuffer.allocate(64);
                    c.read(b);
                    Files.write(t.resolve("received"), java.util.Arrays.copyOf(b.array(), b.position()));
                } catch (IOException e) {
                    // nothing came: the assertion below says so
                }
            });
            accept.setDaemon(true);
            accept.start();
            Harness.shared().sh("/usr/bin/python3 " + t.resolve("ask.py") + " " + engine + " " + mine + " " + out, t,
                    Harness.read(t.toString(), engine.getParent().toString()), Harness.write(out.toString()));
            accept.join(5000);
            String said = Files.readString(out.resolve("engine"));
            assertFalse(said.contains("OK"), "the engine answered from inside: " + said);
            assertTrue(said.contains("PermissionError") || said.contains("ConnectionRefused"), said);
            assertEquals("hello", Files.readString(t.resolve("received")), "control: a socket of the test's own in a "
                    + "granted folder is reachable");
        }
    }

    @Test
    void aasmsOwnStateStaysReadOnlyInsideAWriteGrantOfItsParent() throws Exception {
        Harness h = Harness.shared();
        h.backend.capabilities(); // the backend's state directory exists once it ran
        Path state = Settings.defaults().stateDir().toRealPath();
        Path parent = state.getParent();
        Path forged = state.resolve("forged-" + UUID.randomUUID());
        Path sibling = parent.resolve("aasm-test-sibling-" + UUID.randomUUID());
        try {
            h.sh("echo forged > " + forged + "; echo ok > " + sibling, t, Harness.read(), Harness.write(parent.toString()));
            assertFalse(Files.exists(forged), "nothing was written into the backend's own state");
            assertTrue(Files.exists(sibling), "control: the same write beside it, in the same grant, worked");
        } finally {
            Files.deleteIfExists(forged);
            Files.deleteIfExists(sibling);
        }
    }

    @Test
    void aPrivateTmpIsEmptyForEveryLaunchAndNeverTheHosts() throws Exception {
        Path out = out();
        String name = "aasm-private-" + UUID.randomUUID();
        var priv = Harness.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(out.toString()), List.of("/tmp")));
        Harness h = Harness.shared();
        h.sh("echo x > /tmp/" + name + "; ls /tmp > " + out + "/first", t, Harness.read(t.toString()), priv);
        assertTrue(Files.readString(out.resolve("first")).contains(name), "control: the launch saw its own file");
        assertFalse(Files.exists(Path.of("/tmp", name)), "the host's /tmp never saw it");
        h.sh("ls -A /tmp > " + out + "/second", t, Harness.read(t.toString()), priv);
        // only the mount point of the test's own grant (its temp folder lies under /tmp) is there
        String granted = t.startsWith("/tmp/") ? t.getName(1).toString() : "";
        assertEquals(granted, Files.readString(out.resolve("second")).strip(), "the next launch's /tmp is empty");
    }
}
