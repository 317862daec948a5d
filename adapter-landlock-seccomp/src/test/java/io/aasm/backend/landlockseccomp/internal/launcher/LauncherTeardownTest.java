package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every way a launch ends leaves no process of the tree, with and without a pid namespace. */
class LauncherTeardownTest {
    @TempDir
    Path dir;

    private static PlanMessage.Builder plan(String script, String mode) {
        PlanMessage.Builder b = LauncherFixture.sh(script);
        if (mode.equals("pidns")) {
            b.namespaces(EnumSet.of(PlanRecord.Namespace.USER, PlanRecord.Namespace.PID, PlanRecord.Namespace.MOUNT))
                    .userMap(0, 0, 0, 0).mountProc();
        }
        return b;
    }

    /** A program that leaves a setsid daemon running, once the daemon is up. */
    private String daemonThen(String tag, String rest) {
        Path m = dir.resolve("daemon-up");
        return "/usr/bin/setsid /bin/sh -c 'echo up > " + m + "; exec /bin/sleep " + tag + "' </dev/null >/dev/null 2>&1 &"
                + " while [ ! -e " + m + " ]; do /bin/sleep 0.05; done; " + rest;
    }

    @ParameterizedTest
    @ValueSource(strings = {"pidns", "nopidns"})
    void programExitKillsLeftoverDaemons(String mode) throws Exception {
        String tag = LauncherFixture.newTag();
        LauncherFixture.Result r = LauncherFixture.run(plan(daemonThen(tag, "exit 3"), mode).build(), dir);
        assertEquals(new ExitOutcome.Exited(3), r.exit(), r.toString());
        assertTrue(Files.exists(dir.resolve("daemon-up")), "the daemon did start");
        assertEquals(List.of(), LauncherFixture.tagged(tag));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pidns", "nopidns"})
    void gracefulTerminationForwardsSigtermToTheProgram(String mode) throws Exception {
        String tag = LauncherFixture.newTag();
        PlanMessage p = plan(daemonThen(tag, "exec /bin/sleep " + tag), mode)
                .signals(PlanRecord.SignalTarget.PROGRAM, 1, 2, 15).build();
        try (LauncherProcess lp = LauncherFixture.start(PlanEncoder.encode(p), dir, false)) {
            assertInstanceOf(StartOutcome.Started.class, lp.awaitStart(), lp.transcript().toString());
            LauncherFixture.waitFor(() -> LauncherFixture.tagged(tag).size() == 2);
            assertEquals(2, LauncherFixture.tagged(tag).size(), "program and daemon are running");
            lp.terminate(true);
            assertEquals(new ExitOutcome.Signalled(15), lp.waitFor(), lp.transcript().toString());
            assertEquals(143, lp.launcherExitCode());
        }
        assertEquals(List.of(), LauncherFixture.tagged(tag));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pidns", "nopidns"})
    void cuttingTheLifelineKillsTheTree(String mode) throws Exception {
        String tag = LauncherFixture.newTag();
        LauncherProcess lp = LauncherFixture.start(PlanEncoder.encode(plan(daemonThen(tag, "exec /bin/sleep " + tag),
                mode).build()), dir, false);
        assertInstanceOf(StartOutcome.Started.class, lp.awaitStart(), lp.transcript().toString());
        LauncherFixture.waitFor(() -> LauncherFixture.tagged(tag).size() == 2);
        assertEquals(2, LauncherFixture.tagged(tag).size());
        lp.close();
        assertEquals(137, lp.launcherExitCode());
        LauncherFixture.waitFor(() -> LauncherFixture.tagged(tag).isEmpty());
        assertEquals(List.of(), LauncherFixture.tagged(tag));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pidns", "nopidns"})
    void killingTheLauncherKillsTheTree(String mode) throws Exception {
        String tag = LauncherFixture.newTag();
        try (LauncherProcess lp = LauncherFixture.start(PlanEncoder.encode(plan(daemonThen(tag, "exec /bin/sleep " + tag),
                mode).build()), dir, false)) {
            assertInstanceOf(StartOutcome.Started.class, lp.awaitStart(), lp.transcript().toString());
            LauncherFixture.waitFor(() -> LauncherFixture.tagged(tag).size() == 2);
            assertEquals(2, LauncherFixture.tagged(tag).size());
            lp.terminate(false);
            ExitOutcome.LauncherFailed f = assertInstanceOf(ExitOutcome.LauncherFailed.class, lp.waitFor());
            assertEquals(137, f.launcherStatus());
        }
        LauncherFixture.waitFor(() -> LauncherFixture.tagged(tag).isEmpty());
        assertEquals(List.of(), LauncherFixture.tagged(tag));
    }

}
