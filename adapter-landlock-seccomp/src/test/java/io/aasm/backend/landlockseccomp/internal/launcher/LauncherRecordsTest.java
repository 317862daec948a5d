package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Individual plan records, each with its control: bind mounts, rlimits, signal forwarding targets. */
class LauncherRecordsTest {
    @TempDir
    Path dir;

    private static final EnumSet<PlanRecord.Namespace> USER_MOUNT =
            EnumSet.of(PlanRecord.Namespace.USER, PlanRecord.Namespace.MOUNT);

    @Test
    void readOnlyBindPinsAFileOnlyInsideTheMountNamespace() throws Exception {
        Path pinned = Files.writeString(dir.resolve("hosts"), "192.0.2.7 pinned.example\n");
        Path out = dir.resolve("seen");
        byte[] hostBefore = Files.readAllBytes(Path.of("/etc/hosts"));
        String script = "/bin/sh -c 'cat /etc/hosts > " + out + "; echo tampered >> /etc/hosts'";
        LauncherFixture.Result r = LauncherFixture.run(LauncherFixture.sh(script).namespaces(USER_MOUNT)
                .userMap(0, 0, 0, 0).viewRoot(1).bind(pinned.toString(), "/etc/hosts", true).build(), dir);
        assertInstanceOf(StartOutcome.Started.class, r.start(), r.toString());
        assertEquals("192.0.2.7 pinned.example\n", Files.readString(out));
        assertEquals("192.0.2.7 pinned.example\n", Files.readString(pinned), "read-only: the write was refused");
        assertTrue(java.util.Arrays.equals(hostBefore, Files.readAllBytes(Path.of("/etc/hosts"))), "host file untouched");
        // Control: without the bind the program sees the host's file (read only; nothing written).
        LauncherFixture.Result c = LauncherFixture.run(LauncherFixture.sh("/bin/sh -c 'cat /etc/hosts > " + out + "'")
                .namespaces(USER_MOUNT).userMap(0, 0, 0, 0).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), c.exit(), c.toString());
        assertTrue(java.util.Arrays.equals(hostBefore, Files.readAllBytes(out)));
    }

    @Test
    void rlimitsApplyToTheProgramOnly() throws Exception {
        Path out = dir.resolve("limits");
        String script = "/bin/sh -c 'ulimit -n > " + out + "; ulimit -f >> " + out + "'";
        LauncherFixture.Result r = LauncherFixture.run(LauncherFixture.sh(script)
                .rlimit(PlanRecord.Rlimit.NOFILE, 64, 64).rlimit(PlanRecord.Rlimit.FSIZE, 1024 * 512, 1024 * 512).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        assertEquals(java.util.List.of("64", "1024"), Files.readAllLines(out), "ulimit -f counts 512-byte blocks");
        LauncherFixture.Result c = LauncherFixture.run(LauncherFixture.sh(script).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), c.exit(), c.toString());
        assertFalse(Files.readAllLines(out).get(0).equals("64"));
    }

    /** A child of the program that records whether SIGTERM reached it. */
    private String programWithChild(Path marker, Path ready) {
        String child = "trap \\\"echo term > " + marker + "; exit 0\\\" TERM; echo > " + ready
                + "; while :; do /bin/sleep 0.05; done";
        // The program outlives SIGTERM by a second, so a child that got it has time to run its trap.
        return "trap '/bin/sleep 1; exit 0' TERM; /bin/sh -c \"" + child + "\" & while [ ! -e " + ready
                + " ]; do /bin/sleep 0.05; done; wait";
    }

    @Test
    void groupForwardingReachesTheProgramsChildrenWithControl() throws Exception {
        for (PlanRecord.SignalTarget target : PlanRecord.SignalTarget.values()) {
            Path marker = dir.resolve("term-" + target), ready = dir.resolve("ready-" + target);
            PlanMessage.Builder b = LauncherFixture.sh(programWithChild(marker, ready)).signals(target, 15);
            if (target == PlanRecord.SignalTarget.ALL) {
                b.namespaces(EnumSet.of(PlanRecord.Namespace.USER, PlanRecord.Namespace.PID)).userMap(0, 0, 0, 0);
            }
            try (LauncherProcess p = LauncherFixture.start(PlanEncoder.encode(b.build()), dir, false)) {
                assertInstanceOf(StartOutcome.Started.class, p.awaitStart(), p.transcript().toString());
                LauncherFixture.waitFor(() -> Files.exists(ready));
                assertTrue(Files.exists(ready), "child is up");
                p.terminate(true);
                p.waitFor();
            }
            // PROGRAM: only the shell gets SIGTERM, its child dies at teardown (SIGKILL) without running the trap.
            assertEquals(target != PlanRecord.SignalTarget.PROGRAM, Files.exists(marker), target.toString());
        }
    }
}
