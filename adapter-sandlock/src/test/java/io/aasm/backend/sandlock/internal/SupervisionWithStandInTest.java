package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.sandlock.internal.supervise.ProcessTable;
import io.aasm.ports.backend.ExecutionHandle;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * aasm's own supervision of a sandlock run: exit codes, signals, deadline, termination and teardown
 * of the whole tree. These use the test-only stand-in (fake-sandlock-for-supervision-tests.sh),
 * which confines nothing — they test what aasm does around sandlock, never confinement.
 */
class SupervisionWithStandInTest {
    @TempDir
    Path dir;

    private SandlockBackend backend;

    private SandlockBackend backend(Path sysRoot) throws IOException {
        backend = new SandlockBackend(Fixtures.settings(Map.of("AA_SANDLOCK_BIN", Fixtures.standIn(dir).toString()),
                dir.resolve("cache"), sysRoot, false));
        return backend;
    }

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.deactivate();
        }
    }

    private ExecutionHandle launch(SandlockBackend b, String script, List<ControlRequirement> reqs,
                                   Map<String, String> env) throws Exception {
        Path s = Fixtures.script(dir, "prog-" + System.nanoTime(), script);
        ExecutionSpec spec = Fixtures.spec(s.toString(), List.of(), reqs, env);
        return b.spawn(b.prepare(Fixtures.plan(spec)));
    }

    private static boolean alive(long pid) {
        return new ProcessTable(Path.of("/proc")).read(pid).filter(p -> p.state() != 'Z').isPresent();
    }

    private long pidFrom(Path file) throws Exception {
        for (int i = 0; i < 1000 && (!Files.exists(file) || Files.readString(file).isBlank()); i++) {
            Thread.sleep(10);
        }
        return Long.parseLong(Files.readString(file).strip());
    }

    @Test
    void exitCodeIsPassedThrough() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        assertEquals(new ExitDisposition.Exited(7), b.waitFor(launch(b, "exit 7", List.of(), Map.of())));
    }

    @Test
    void signalDeathOfTheProgramIs128PlusN() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        ExitDisposition d = b.waitFor(launch(b, "kill -TERM $$", List.of(), Map.of()));
        assertEquals(143, d.shellStatus());
    }

    @Test
    void deadlineKillsTheWholeTree() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        Path pid = dir.resolve("sleeper.pid");
        ExecutionHandle h = launch(b, "sleep 300 & echo $! > " + pid + "; wait",
                List.of(Fixtures.req(CapabilityDomain.RESOURCE, Fixtures.wallClock(1))), Map.of());
        long sleeper = pidFrom(pid);
        assertEquals(new ExitDisposition.Signalled(9), b.waitFor(h));
        assertFalse(alive(sleeper), "the grandchild outlived the deadline");
        assertTrue(b.evidence(h).records().stream().anyMatch(r -> r.kind() == EvidenceKind.EXERCISED
                && r.detail().contains("wall-clock deadline reached")));
    }

    @Test
    void gracefulTerminationSignalsTheTree() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        Path pid = dir.resolve("g.pid");
        ExecutionHandle h = launch(b, "sleep 300 & echo $! > " + pid + "; wait", List.of(), Map.of());
        long sleeper = pidFrom(pid);
        assertTrue(b.terminate(h, TerminationRequest.GRACEFUL));
        ExitDisposition d = b.waitFor(h);
        assertEquals(new ExitDisposition.Signalled(15), d);
        assertFalse(alive(sleeper));
    }

    @Test
    void immediateTerminationKills() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        ExecutionHandle h = launch(b, "trap '' TERM; sleep 300; sleep 300", List.of(), Map.of());
        Thread.sleep(100);
        assertTrue(b.terminate(h, TerminationRequest.IMMEDIATE));
        assertEquals(new ExitDisposition.Signalled(9), b.waitFor(h));
        assertFalse(b.terminate(h, TerminationRequest.IMMEDIATE), "nothing left to deliver to");
    }

    @Test
    void backgroundDescendantIsSweptAtNormalExit() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        Path pid = dir.resolve("bg.pid");
        ExecutionHandle h = launch(b, "sleep 300 & echo $! > " + pid + "; exit 0", List.of(), Map.of());
        assertEquals(new ExitDisposition.Exited(0), b.waitFor(h));
        assertFalse(alive(pidFrom(pid)), "upstream #251: a background child outlived the run");
    }

    @Test
    void setsidDaemonDoesNotSurviveWithCgroupTeardown() throws Exception {
        Path cg = Path.of("/sys/fs/cgroup/unified");
        Assumptions.assumeTrue(Files.isWritable(cg) || Files.isWritable(Path.of("/sys/fs/cgroup/cgroup.procs")),
                "environment cannot host this check: no writable cgroup v2 hierarchy");
        SandlockBackend b = backend(Path.of("/sys"));
        assertTrue(new io.aasm.backend.sandlock.internal.supervise.Trackers(Path.of("/sys"), Path.of("/proc"))
                .wholeTree(), "a writable cgroup v2 must select cgroup teardown");
        Path pid = dir.resolve("daemon.pid");
        // The program's child daemonises with setsid and its parent exits at once: #252's escape.
        ExecutionHandle h = launch(b, "sh -c 'setsid sleep 300 & echo $! > " + pid + "' ; exit 0", List.of(),
                Map.of());
        assertEquals(new ExitDisposition.Exited(0), b.waitFor(h));
        long daemon = pidFrom(pid);
        assertFalse(alive(daemon), "a setsid daemon escaped teardown");
    }

    @Test
    void setsidDaemonSeenByAScanDoesNotSurviveWithProcScanTeardown() throws Exception {
        SandlockBackend b = backend(dir.resolve("no-sys")); // no cgroup here: /proc scanning
        Path pid = dir.resolve("daemon2.pid");
        // The parent lingers so that a scan sees the daemon before it is reparented (generous, for a loaded
        // machine); a daemon that detaches between two scans is the documented gap of this mode.
        ExecutionHandle h = launch(b, "sh -c 'setsid sleep 300 & echo $! > " + pid + "; sleep 1.5' ; exit 0",
                List.of(), Map.of());
        assertEquals(new ExitDisposition.Exited(0), b.waitFor(h));
        assertFalse(alive(pidFrom(pid)), "a setsid daemon escaped teardown");
    }

    @Test
    void sandlockStartsWithOnlyTheDelegatedEnvironment() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        Path out = dir.resolve("env.txt");
        ExecutionHandle h = launch(b, "exec /usr/bin/env -u PWD > " + out, List.of(Fixtures.req(
                CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("AASM_TEST_TOKEN")))),
                Map.of("AASM_TEST_TOKEN", "tok-123456"));
        assertEquals(new ExitDisposition.Exited(0), b.waitFor(h));
        assertEquals(List.of("AASM_TEST_TOKEN=tok-123456"), Files.readAllLines(out));
    }
}
