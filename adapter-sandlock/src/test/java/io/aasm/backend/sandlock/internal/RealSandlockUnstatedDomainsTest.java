package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An absent section restricts nothing, under sandlock too: each domain left out of the policy is
 * open to a grandchild (the effect happens), and the same run with the domain stated as denied is the
 * control (no effect). Where sandlock cannot leave a domain alone (writes outside stated reads), the
 * restriction is real and the report row says so.
 */
class RealSandlockUnstatedDomainsTest {
    @TempDir
    Path dir;

    private SandlockBackend backend;

    @BeforeEach
    void start() {
        backend = Fixtures.realOrCannotHost(dir, Path.of("/sys"));
    }

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.deactivate();
        }
    }

    private ExitDisposition run(String script, ControlRequirement... reqs) throws Exception {
        return (backend.prepare(Fixtures.plan(Fixtures.spec("/bin/sh",
                List.of("-c", "sh -c '" + script + "'; true"), List.of(reqs), Map.of()))).spawn()).await();
    }

    private ControlRequirement writes(Path... paths) {
        return Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(
                java.util.Arrays.stream(paths).map(Path::toString).toList()));
    }

    @Test
    void unstatedReadsAreOpenAndTheProgramStarts() throws Exception {
        Path secret = Files.createDirectories(dir.resolve("r")).resolve("secret");
        Files.writeString(secret, "s3cret-bytes");
        Path out = Files.createDirectories(dir.resolve("o"));
        assertEquals(new ExitDisposition.Exited(0), run("cat " + secret + " > " + out.resolve("copy"), writes(out)));
        assertEquals("s3cret-bytes", Files.readString(out.resolve("copy")), "an unstated read section must not"
                + " stop the program from reading (nor from starting)");
        Files.delete(out.resolve("copy"));
        run("cat " + secret + " > " + out.resolve("copy"), Fixtures.reads(), writes(out));
        assertTrue(Files.readString(out.resolve("copy")).isEmpty(), "control: stated reads without the file");
    }

    @Test
    void unstatedWritesAreOpenWhenReadsAreUnstatedToo() throws Exception {
        Path target = dir.resolve("target");
        Files.writeString(target, "original");
        run("echo changed > " + target, Fixtures.req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()));
        assertEquals("changed\n", Files.readString(target));
        Files.writeString(target, "original");
        run("echo changed > " + target, Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.WholeDomain()));
        assertEquals("original", Files.readString(target), "control: writes stated as denied");
    }

    @Test
    void unstatedWritesUnderStatedReadsOpenOnlyBeneathTheReadsAndTheRowSaysSo() throws Exception {
        Path readable = Files.createDirectories(dir.resolve("readable"));
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        run("echo in > " + readable.resolve("f") + "; echo out > " + elsewhere.resolve("f"),
                Fixtures.reads(readable.toString()));
        assertEquals("in\n", Files.readString(readable.resolve("f")), "writes beneath a read grant are open");
        assertFalse(Files.exists(elsewhere.resolve("f")), "sandlock denies writes outside the read grants");
        SupportLevel row = backend.plan(Fixtures.spec("/bin/sh", List.of(), List.of(
                Fixtures.reads(readable.toString())), Map.of())).capabilities().reportFor(CapabilityDomain.FILESYSTEM_WRITE)
                .orElseThrow().support();
        assertTrue(row instanceof SupportLevel.Partial p && p.limitations().get(0)
                .contains("denies writes outside the read grants"), "the report must state that restriction: " + row);
    }

    @Test
    void unstatedEgressIsOpen() throws Exception {
        Path bash = Path.of(Files.isExecutable(Path.of("/bin/bash")) ? "/bin/bash" : "/usr/bin/bash");
        try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(500);
            String script = bash + " -c \"echo hello > /dev/tcp/127.0.0.1/" + server.getLocalPort() + "\"";
            run(script, Fixtures.reads());
            assertEquals("hello\n", received(server), "an unstated egress section must not block connections");
            run(script, Fixtures.reads(), Fixtures.req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()));
            assertEquals("", received(server), "control: egress stated as denied");
        }
    }

    @Test
    void unstatedIpcLeavesSignalsOutsideOpen() throws Exception {
        assertTrue(signalled(Fixtures.reads()), "an unstated ipc section must not scope signals");
        assertFalse(signalled(Fixtures.reads(), Fixtures.req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of()))),
                "control: ipc stated with no channel");
    }

    private boolean signalled(ControlRequirement... reqs) throws Exception {
        Process target = new ProcessBuilder("/bin/sleep", "30").start();
        try {
            run("kill -TERM " + target.pid(), reqs);
            return target.waitFor(2, TimeUnit.SECONDS);
        } finally {
            target.destroyForcibly();
        }
    }

    @Test
    void unstatedProcessCreationLiftsSandlocksDefaultCeiling() throws Exception {
        Path count = dir.resolve("count");
        Files.writeString(count, "");
        // 80 concurrent children (sandlock's own default ceiling is 64), each appending one line once all run.
        String script = "for i in $(seq 80); do (sleep 1; echo x >> " + count + ") & done; wait";
        run(script, Fixtures.reads(), writes(dir, Path.of("/dev/null")));
        assertEquals(80, Files.readAllLines(count).size(), "an unstated process section must not cap processes");
        Files.writeString(count, "");
        run(script, Fixtures.reads(), writes(dir, Path.of("/dev/null")), Fixtures.req(CapabilityDomain.PROCESS_CREATION,
                new Scope.ProcessCeiling(64)));
        assertTrue(Files.readAllLines(count).size() < 80, "control: a stated ceiling of 64 caps them");
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
