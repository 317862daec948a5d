package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cheap joins (PROTOCOL.md, steps 4 and 5): a v1 group through its {@code tasks} file (init moves its one
 * thread), a cgroup2 group by creating the program child in it. Either way the program and everything it starts
 * must run inside the group, and a join that fails must run nothing. Each case runs with and without a pid
 * namespace (and, with one, a requested program pid: the clone3 that creates the child carries both).
 */
class LauncherCgroupJoinTest {
    @TempDir
    Path dir;

    private static PlanMessage.Builder plan(String script, boolean pid) {
        PlanMessage.Builder b = LauncherFixture.sh(script);
        return pid ? b.namespaces(EnumSet.of(PlanRecord.Namespace.PID)).programPid(37) : b;
    }

    /** The grandchild's line of /proc/self/cgroup for the hierarchy {@code key} (e.g. ":cpuacct:", "0::"). */
    private String placed(String key, boolean pid, String join) throws IOException {
        Path seen = dir.resolve("cgroup");
        Files.deleteIfExists(seen);
        String script = "(grep '^[0-9]*" + key.substring(key.indexOf(':')) + "' /proc/self/cgroup > " + seen + ")";
        PlanMessage.Builder b = plan(script, pid);
        if (join != null) {
            b.cgroupJoin(join);
        }
        LauncherFixture.Result r = LauncherFixture.run(b.build(), dir);
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        return Files.readString(seen).trim().replaceFirst("^\\d+:[^:]*:", "");
    }

    private static Path group(Path hierarchy, String kind, boolean pid) throws IOException {
        Assumptions.assumeTrue(Files.isWritable(hierarchy.resolve("cgroup.procs")),
                "environment cannot host this check: no writable " + kind + " hierarchy at " + hierarchy);
        return Files.createDirectory(hierarchy.resolve("aasm-join-test-" + ProcessHandle.current().pid() + "-" + pid));
    }

    @ParameterizedTest(name = "pid namespace {0}")
    @ValueSource(booleans = {false, true})
    void aV1GroupJoinedByItsTasksFileHoldsTheProgramTree(boolean pid) throws IOException {
        Path g = group(Path.of("/sys/fs/cgroup/cpuacct"), "cgroup v1 cpuacct", pid);
        try {
            assertEquals("/" + g.getFileName(), placed(":cpuacct:", pid, g.resolve("tasks").toString()));
            assertTrue(Long.parseLong(Files.readString(g.resolve("cpuacct.usage")).trim()) > 0, "charged there");
            // Control: without the join the grandchild runs where the launcher was started.
            assertFalse(placed(":cpuacct:", pid, null).contains(g.getFileName().toString()));
        } finally {
            Files.delete(g);
        }
    }

    @ParameterizedTest(name = "pid namespace {0}")
    @ValueSource(booleans = {false, true})
    void aCgroup2GroupHoldsTheProgramTreeCreatedInIt(boolean pid) throws IOException {
        Path unified = Files.isDirectory(Path.of("/sys/fs/cgroup/unified")) ? Path.of("/sys/fs/cgroup/unified")
                : Path.of("/sys/fs/cgroup");
        Path g = group(unified, "cgroup2", pid);
        try {
            assertEquals("/" + g.getFileName(), placed("0::", pid, g.resolve("cgroup.procs").toString()));
            assertEquals("", Files.readString(g.resolve("cgroup.procs")).trim(), "the tree is gone with the program");
            // Control: without the join the grandchild stays where the launcher was started.
            assertFalse(placed("0::", pid, null).contains(g.getFileName().toString()));
        } finally {
            Files.delete(g);
        }
    }

    @ParameterizedTest(name = "pid namespace {0}")
    @ValueSource(booleans = {false, true})
    void aJoinThatFailsRunsNothing(boolean pid) throws IOException {
        Path marker = dir.resolve("ran");
        String script = "touch " + marker + "; (touch " + marker + ".child)";
        // /dev/full opens for writing (step 2 passes) and fails every write: init's join itself fails.
        LauncherFixture.Result r = LauncherFixture.run(plan(script, pid).cgroupJoin("/dev/full").build(), dir);
        LauncherRefusalTest.assertRefused("cgroup_join", r);
        assertFalse(Files.exists(marker), "the program must not have run: " + r);
        assertFalse(Files.exists(Path.of(marker + ".child")), "nor anything it would start: " + r);
        // Control: the same plan without the failing join runs, grandchild included.
        LauncherFixture.Result ok = LauncherFixture.run(plan(script, pid).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), ok.exit(), ok.toString());
        assertTrue(Files.exists(marker) && Files.exists(Path.of(marker + ".child")), ok.toString());
        assertTrue(ok.process().transcript().stream().anyMatch(l -> l.startsWith("stages:start=")),
                "the setup's stages are stamped: " + ok);
    }
}
