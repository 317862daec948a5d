package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Confinement through a REAL sandlock, found like the backend finds it (AA_SANDLOCK_BIN, then PATH).
 * Without one, every test here reports "environment cannot host this check: no sandlock executable";
 * no stand-in is ever used for confinement. Each denial has a control differing by one grant, the
 * acting process is a grandchild, and the verdict is an effect.
 */
class RealSandlockConfinementTest {
    private static final List<String> SYSTEM = List.of("/usr", "/bin", "/lib", "/lib64", "/sbin");

    @TempDir
    Path dir;

    private SandlockBackend backend;

    @BeforeEach
    void findSandlock() {
        backend = Fixtures.realOrCannotHost(dir, Path.of("/sys"));
    }

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.deactivate();
        }
    }

    private List<ControlRequirement> reads(Path... extra) {
        List<String> paths = new ArrayList<>(SYSTEM.stream().filter(p -> Files.isDirectory(Path.of(p))).toList());
        for (Path p : extra) {
            paths.add(p.toString());
        }
        return new ArrayList<>(List.of(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_READ,
                new Scope.Paths(paths))));
    }

    private int run(List<ControlRequirement> reqs, String script) throws Exception {
        ExecutionSpec spec = Fixtures.spec("/bin/sh", List.of("-c", script), reqs, Map.of());
        Execution h = backend.prepare(Fixtures.plan(spec)).spawn();
        return h.await().shellStatus();
    }

    @Test
    void forbiddenWriteLeavesTheFileUnchanged() throws Exception {
        Path target = dir.resolve("w/target");
        Files.createDirectories(target.getParent());
        String script = "sh -c 'echo changed > " + target + "'; true";
        Files.writeString(target, "original");
        List<ControlRequirement> control = reads();
        control.add(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_WRITE,
                new Scope.Paths(List.of(target.getParent().toString()))));
        run(control, script);
        assertEquals("changed\n", Files.readString(target), "control: the write grant must allow the write");
        Files.writeString(target, "original");
        // One grant less: writes stated, granting nothing (an unstated write section would leave them open).
        List<ControlRequirement> denied = reads(target.getParent());
        denied.add(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_WRITE, new Scope.WholeDomain()));
        run(denied, script);
        assertEquals("original", Files.readString(target), "the file changed without a write grant");
    }

    @Test
    void forbiddenReadReturnsNoBytes() throws Exception {
        Path secret = dir.resolve("r/secret");
        Files.createDirectories(secret.getParent());
        Files.writeString(secret, "s3cret-bytes");
        Path out = dir.resolve("o");
        Files.createDirectories(out);
        String script = "sh -c 'cat " + secret + " > " + out.resolve("copy") + "'; true";
        List<ControlRequirement> control = reads(secret.getParent());
        control.add(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(out.toString()))));
        run(control, script);
        assertEquals("s3cret-bytes", Files.readString(out.resolve("copy")), "control: the read grant must allow it");
        Files.delete(out.resolve("copy"));
        List<ControlRequirement> denied = reads();
        denied.add(ControlRequirement.strict(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(out.toString()))));
        run(denied, script);
        assertFalse(Files.exists(out.resolve("copy")) && Files.readString(out.resolve("copy")).contains("s3cret"));
    }

    @Test
    void forbiddenDestinationReceivesNoByte() throws Exception {
        Optional<Path> bash = List.of(Path.of("/bin/bash"), Path.of("/usr/bin/bash")).stream()
                .filter(Files::isExecutable).findFirst();
        org.junit.jupiter.api.Assumptions.assumeTrue(bash.isPresent(), "environment cannot host this check: no bash for /dev/tcp");
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(500);
            int port = server.getLocalPort();
            String script = "sh -c \"" + bash.get() + " -c 'echo hello > /dev/tcp/127.0.0.1/" + port + "'\"; true";
            List<ControlRequirement> control = reads();
            control.add(ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                    new EgressGrant(Protocol.TCP, "127.0.0.1", port, port)))));
            run(control, script);
            assertTrue(received(server).contains("hello"), "control: the egress rule must let bytes through");
            List<ControlRequirement> denied = reads();
            denied.add(ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()));
            run(denied, script);
            assertEquals("", received(server), "bytes reached a listener no rule allowed");
        }
    }

    @Test
    void probesBackTheReportedPrevention() {
        for (CapabilityDomain d : List.of(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.FILESYSTEM_WRITE)) {
            CapabilityReport r = backend.capabilities().reportFor(d).orElseThrow();
            assertTrue(r.canPrevent(), d.token() + " probes did not observe a denial: " + r.prerequisites());
        }
    }

    private static String received(ServerSocket server) throws Exception {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        while (true) {
            try (Socket s = server.accept()) {
                s.setSoTimeout(500);
                all.write(s.getInputStream().readNBytes(1024));
            } catch (SocketTimeoutException e) {
                return all.toString();
            }
        }
    }
}
