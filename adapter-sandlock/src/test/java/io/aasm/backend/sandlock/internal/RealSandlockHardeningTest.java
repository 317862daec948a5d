package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.Execution;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What aasm's guard adds around sandlock, each through the real sandlock with a grandchild acting and
 * the effect checked: the launch (backend prepare/spawn) has no effect, and the control — the same
 * sandlock command line started by the same guard without the capability drop, without aasm's program
 * filter, or without the read-only view — has it. Sandlock 0.8.6 alone lets each of these through (the
 * controls show it).
 */
class RealSandlockHardeningTest {
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

    private static String twice(String action) {
        return "sh -c '" + action + "'; true";
    }

    private List<ControlRequirement> reads(Path... extra) {
        List<String> p = new ArrayList<>(Fixtures.SYSTEM);
        for (Path e : extra) {
            p.add(e.toString());
        }
        return new ArrayList<>(List.of(Fixtures.req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(p))));
    }

    /** Five capability sets, all empty, and no_new_privs. */
    private static boolean clean(String status) {
        List<String> caps = status.lines().filter(l -> l.startsWith("Cap")).toList();
        return caps.size() == 5 && caps.stream().allMatch(l -> l.split(":")[1].strip().matches("0+"))
                && status.lines().anyMatch(l -> l.matches("NoNewPrivs:\\s*1"));
    }

    /** Mode, modification time and the user.aasm extended attribute, as the test sees them. */
    private static final class MetadataOf {
        static String of(Path f) throws java.io.IOException {
            var v = Files.getFileAttributeView(f, java.nio.file.attribute.UserDefinedFileAttributeView.class);
            String x = "-";
            if (v.list().contains("aasm")) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(v.size("aasm"));
                v.read("aasm", b);
                x = new String(b.array(), java.nio.charset.StandardCharsets.UTF_8);
            }
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(f)) + " mtime="
                    + Files.getLastModifiedTime(f) + " xattr=" + x;
        }
    }

    @Test
    void theProgramHoldsNoCapabilityAndTheReportPlansLeastAuthority() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        List<ControlRequirement> reqs = List.of(Fixtures.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(
                SyscallMode.DENY, List.of("acct"))));
        String grep = "grep -E \"^(Cap|NoNewPrivs)\" /proc/self/status";
        Execution e = pairs.launch(reqs, twice(grep + " > " + out.resolve("status")));
        String held = Files.readString(out.resolve("status"));
        assertTrue(clean(held), "the program's own status: " + held);
        String control = pairs.control(reqs, twice(grep), false, true, true);
        assertFalse(clean(control), "control (no drop) must hold a capability: " + control);
        assertTrue(e.evidence().records().stream().anyMatch(r -> r.detail().startsWith("sandlock's own /proc status")
                && r.detail().contains("CapBnd=0000000000000000") && r.detail().contains("hold no more")),
                e.evidence().records().toString());
        var plan = (SandlockPlan) pairs.backend.plan(Fixtures.spec("/bin/true", List.of(), reqs, java.util.Map.of()));
        assertTrue(plan.plannedAuthority().orElseThrow().clean(), "least authority is planned where it is observed");
    }

    @Test
    void rootCannotMakeADeviceInItsWriteGrant() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "environment cannot host this check: only root can make a device node even unconfined");
        Path w = Files.createDirectories(dir.resolve("w"));
        List<ControlRequirement> reqs = reads();
        reqs.add(Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(w.toString()))));
        String mknod = "mknod " + w.resolve("node") + " c 1 3";
        pairs.launch(reqs, twice(mknod));
        assertFalse(Files.exists(w.resolve("node")), "a device node was made under the launch");
        pairs.control(reqs, twice(mknod), false, true, true);
        assertTrue(Files.exists(w.resolve("node")), "control (no drop): root makes the node");
    }

    @Test
    void clone3CannotMakeAUserNamespace() throws Exception {
        Path actor = pairs.actor();
        Path out = Files.createDirectories(dir.resolve("out"));
        List<ControlRequirement> reqs = List.of(Fixtures.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(
                SyscallMode.DENY, List.of("unshare", "setns"))));
        String act = twice(actor + " clone3-userns " + out.resolve("ns"));
        pairs.launch(reqs, act);
        assertFalse(Files.exists(out.resolve("ns")), "a child ran in a new user namespace");
        pairs.control(reqs, act, true, false, true);
        assertTrue(Files.readString(out.resolve("ns")).startsWith("child userns user:["), "control (no filter)");
    }

    @Test
    void aCallNewerThanTheFiltersTableDoesNotRun() throws Exception {
        Path actor = pairs.actor();
        Path out = Files.createDirectories(dir.resolve("out"));
        new ProcessBuilder(actor.toString(), "lsm-list", out.resolve("host").toString()).start().waitFor();
        Assumptions.assumeTrue(Files.exists(out.resolve("host")), "environment cannot host this check: this kernel"
                + " has no lsm_list_modules (461)");
        List<ControlRequirement> reqs = List.of(Fixtures.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(
                SyscallMode.DENY, List.of("acct"))));
        String act = twice(actor + " lsm-list " + out.resolve("ran"));
        pairs.launch(reqs, act);
        assertFalse(Files.exists(out.resolve("ran")), "syscall 461 ran under the launch");
        pairs.control(reqs, act, true, false, true);
        assertTrue(Files.exists(out.resolve("ran")), "control (no filter): sandlock lets 461 run");
    }

    @Test
    void metadataOfAReadOnlyGrantedFileDoesNotChange() throws Exception {
        Path ro = Files.createDirectories(dir.resolve("ro"));
        Path f = ro.resolve("f");
        Path w = Files.createDirectories(dir.resolve("w"));
        List<ControlRequirement> reqs = reads(ro);
        reqs.add(Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(w.toString()))));
        String act = twice("chmod 0666 " + f + "; touch -m -d @1000000000 " + f
                + "; /usr/bin/python3 -c \"import os; os.setxattr(\\\"" + f + "\\\", \\\"user.aasm\\\", b\\\"x\\\")\"");
        Files.writeString(f, "x");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        String before = MetadataOf.of(f);
        pairs.launch(reqs, act);
        assertEquals(before, MetadataOf.of(f), "metadata changed under the launch");
        pairs.control(reqs, act, true, true, false);
        String after = MetadataOf.of(f);
        assertTrue(after.startsWith("rw-rw-rw- ") && after.contains("mtime=2001-09-09") && after.endsWith("xattr=x"),
                "control (no read-only view): sandlock lets mode, times and xattrs change: " + after);
        // inside the write grant metadata changes as it should (the view keeps the grants writable)
        pairs.launch(reqs, twice("touch " + w.resolve("new") + " && chmod 0600 " + w.resolve("new")));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(w.resolve("new"))));
    }

    @Test
    void aFolderOutsideTheReadGrantsCannotBeWatched() throws Exception {
        Path actor = pairs.actor();
        Path watched = Files.createDirectories(dir.resolve("watched"));
        Path out = Files.createDirectories(dir.resolve("out"));
        List<ControlRequirement> reqs = reads(actor.getParent(), out);
        String act = twice(actor + " inotify " + watched + " " + out.resolve("seen"));
        Thread maker = makeWhenArmed(out.resolve("seen"), watched.resolve("made-1"));
        pairs.launch(reqs, act);
        maker.join(10_000);
        assertFalse(Files.exists(out.resolve("seen")) && Files.readString(out.resolve("seen")).contains("made-1"),
                "the watch saw a name outside the read grants");
        Files.deleteIfExists(out.resolve("seen"));
        maker = makeWhenArmed(out.resolve("seen"), watched.resolve("made-2"));
        pairs.control(reqs, act, true, false, true);
        maker.join(10_000);
        assertTrue(Files.readString(out.resolve("seen")).contains("made-2"), "control (no filter): the watch sees it");
    }

    private static Thread makeWhenArmed(Path armed, Path file) {
        Thread t = new Thread(() -> {
            try {
                for (int i = 0; i < 300 && !Files.exists(armed); i++) {
                    Thread.sleep(20);
                }
                if (Files.exists(armed)) {
                    Files.writeString(file, "created while watched");
                }
            } catch (Exception e) {
                // nothing created: the assertions say so
            }
        });
        t.start();
        return t;
    }
}
