package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Around the boundary, through the real sandlock with a grandchild acting: the caller's session, aasm's
 * own paths when writes are opened for an unstated domain, and a grant a symlink redirects. Each with a
 * control: the same action where nothing stops it.
 */
class RealSandlockSurroundingsTest {
    @TempDir
    Path dir;

    private HardeningPairs pairs;

    @BeforeEach
    void start() {
        pairs = new HardeningPairs(dir);
    }

    @AfterEach
    void stop() {
        if (pairs != null) {
            pairs.close();
        }
    }

    private static String sid(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3];
    }

    @Test
    void theProgramNeverRunsInTheCallersSession() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        String record = "sh -c 'cat /proc/self/stat > " + out.resolve("stat") + "'; true";
        String caller = sid(Files.readString(Path.of("/proc/self/stat")));
        pairs.launch(List.of(Fixtures.req(CapabilityDomain.IPC, new Scope.WholeDomain())), record);
        assertNotEquals(caller, sid(Files.readString(out.resolve("stat"))), "the program shares the caller's session");
        // control: the same grandchild, started by this JVM without a boundary, is in the caller's session
        Process p = new ProcessBuilder("/bin/sh", "-c", record).start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertEquals(caller, sid(Files.readString(out.resolve("stat"))));
    }

    @Test
    void writesOpenedForAnUnstatedDomainStayOffAasmsOwnPaths() throws Exception {
        // Not under /tmp: every entry beside the way down to aasm's paths is granted by name, and sandlock
        // refuses to start when one vanished before it opened it (other builds' /tmp/junit-* folders do).
        Path quiet = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "own-paths-").toRealPath();
        try {
            besideAasmsOwnPaths(quiet);
        } finally {
            try (var walk = Files.walk(quiet)) {
                for (Path q : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(q);
                }
            }
        }
    }

    private void besideAasmsOwnPaths(Path dir) throws Exception {
        Path install = Files.createDirectories(dir.resolve("aasm-home/lib"));
        Path beside = Files.createDirectories(dir.resolve("project"));
        ExecutionSpec spec = new ExecutionSpec("/bin/sh", List.of("-c", "sh -c 'echo planted > " + install.resolve("x")
                + "; echo written > " + beside.resolve("x") + "'; true"), "/", IdentityRef.anonymous(),
                List.of(Fixtures.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("acct")))),
                Map.of(), CredentialPosture.none(), new Stdio.Inherit(), List.of(dir.resolve("aasm-home").toString()));
        Execution e = pairs.backend.prepare(Fixtures.plan(spec)).spawn();
        e.await();
        assertFalse(Files.exists(install.resolve("x")), "the program wrote into aasm's own install");
        assertEquals("written\n", Files.readString(beside.resolve("x")), "control: the folder beside it is writable");
        assertTrue(e.evidence().records().stream().anyMatch(r -> r.detail().contains("stay read-only")),
                e.evidence().records().toString());
    }

    @Test
    void aWriteGrantOverAasmsOwnStateIsNotPlanned() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache/aasm"));
        ControlRequirement w = Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE,
                new Scope.Paths(List.of(dir.resolve("cache").toString())));
        ExecutionSpec spec = new ExecutionSpec("/bin/true", List.of(), "/", IdentityRef.anonymous(), List.of(w), Map.of(),
                CredentialPosture.none(), new Stdio.Inherit(), List.of(cache.toString()));
        var caps = pairs.backend.plan(spec).capabilities();
        String why = ((SupportLevel.Unsupported) caps.reportFor(CapabilityDomain.FILESYSTEM_WRITE).get().support())
                .reason();
        assertTrue(why.contains("covers aasm's own state"), why);
    }

    @Test
    void aGrantThroughASymlinkConfinesToItsTargetAndTheReportNamesIt() throws Exception {
        Path target = Files.createDirectories(dir.resolve("victim")).toRealPath();
        Path link = Files.createSymbolicLink(Files.createDirectories(dir.resolve("shared")).resolve("sub"), target);
        Path other = Files.createDirectories(dir.resolve("other"));
        List<ControlRequirement> reqs = List.of(Fixtures.reads(), Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE,
                new Scope.Paths(List.of(link.toString()))));
        Execution e = pairs.launch(reqs, "sh -c 'echo in > " + link.resolve("f") + "; echo out > " + other.resolve("f")
                + "'; true");
        assertEquals("in\n", Files.readString(target.resolve("f")), "the grant reaches its target");
        assertFalse(Files.exists(other.resolve("f")), "and nothing else");
        assertTrue(e.evidence().records().stream().anyMatch(r -> r.detail().contains("resolves through a symlink to "
                + target)), e.evidence().records().toString());
    }
}
