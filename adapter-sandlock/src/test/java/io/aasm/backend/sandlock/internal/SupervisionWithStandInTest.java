package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.sandlock.internal.supervise.ProcessTable;
import io.aasm.ports.backend.Execution;
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

    private Execution launch(SandlockBackend b, String script, List<ControlRequirement> reqs,
                                   Map<String, String> env) throws Exception {
        Path s = Fixtures.script(dir, "prog-" + System.nanoTime(), script);
        ExecutionSpec spec = Fixtures.spec(s.toString(), List.of(), reqs, env);
        return b.prepare(Fixtures.plan(spec)).spawn();
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
        assertEquals(new ExitDisposition.Exited(7), launch(b, "exit 7", List.of(), Map.of()).await());
    }

    @Test
    void signalDeathOfTheProgramIs128PlusN() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        ExitDisposition d = launch(b, "kill -TERM $$", List.of(), Map.of()).await();
        assertEquals(143, d.shellStatus());
    }

    @Test
    void deadlineKillsTheWholeTree() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        Path pid = dir.resolve("sleeper.pid");
        Execution h = launch(b, "sleep 300 & echo $! > " + pid + "; wait",
                List.of(Fixtures.req(CapabilityDomain.RESOURCE, Fixtures.wallClock(1))), Map.of());
        long sleeper = pidFrom(pid);
        assertEquals(new ExitDisposition.Signalled(9), h.await());
        assertFalse(alive(sleeper), "the grandchild outlived the deadline");
        assertTrue(h.evidence().records().stream().anyMatch(r -> r.kind() == EvidenceKind.EXERCISED
                && r.detail().contains("wall-clock deadline reached")));
    }

    @Test
    void gracefulTerminationSignalsTheTree() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        Path pid = dir.resolve("g.pid");
        Execution h = launch(b, "sleep 300 & echo $! > " + pid + "; wait", List.of(), Map.of());
        long sleeper = pidFrom(pid);
        assertTrue(h.terminate(TerminationRequest.GRACEFUL));
        ExitDisposition d = h.await();
        assertEquals(new ExitDisposition.Signalled(15), d);
        assertFalse(alive(sleeper));
    }

    @Test
    void immediateTerminationKills() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        Execution h = launch(b, "trap '' TERM; sleep 300; sleep 300", List.of(), Map.of());
        Thread.sleep(100);
        assertTrue(h.terminate(TerminationRequest.IMMEDIATE));
        assertEquals(new ExitDisposition.Signalled(9), h.await());
        assertFalse(h.terminate(TerminationRequest.IMMEDIATE), "nothing left to deliver to");
    }

    @Test
    void backgroundDescendantIsSweptAtNormalExit() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        Path pid = dir.resolve("bg.pid");
        Execution h = launch(b, "sleep 300 & echo $! > " + pid + "; exit 0", List.of(), Map.of());
        assertEquals(new ExitDisposition.Exited(0), h.await());
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
        Execution h = launch(b, "sh -c 'setsid sleep 300 & echo $! > " + pid + "' ; exit 0", List.of(),
                Map.of());
        assertEquals(new ExitDisposition.Exited(0), h.await());
        long daemon = pidFrom(pid);
        assertFalse(alive(daemon), "a setsid daemon escaped teardown");
    }

    @Test
    void setsidDaemonSeenByAScanDoesNotSurviveWithProcScanTeardown() throws Exception {
        SandlockBackend b = backend(dir.resolve("no-sys")); // no cgroup here: /proc scanning
        Path pid = dir.resolve("daemon2.pid");
        // The parent lingers so that a scan sees the daemon before it is reparented (generous, for a loaded
        // machine); a daemon that detaches between two scans is the documented gap of this mode.
        Execution h = launch(b, "sh -c 'setsid sleep 300 & echo $! > " + pid + "; sleep 1.5' ; exit 0",
                List.of(), Map.of());
        assertEquals(new ExitDisposition.Exited(0), h.await());
        assertFalse(alive(pidFrom(pid)), "a setsid daemon escaped teardown");
    }

    @Test
    void sandlockStartsWithOnlyTheDelegatedEnvironment() throws Exception {
        SandlockBackend b = backend(Path.of("/sys"));
        Path out = dir.resolve("env.txt");
        Execution h = launch(b, "exec /usr/bin/env -u PWD > " + out, List.of(Fixtures.req(
                CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("AASM_TEST_TOKEN")))),
                Map.of("AASM_TEST_TOKEN", "tok-123456"));
        assertEquals(new ExitDisposition.Exited(0), h.await());
        assertEquals(List.of("AASM_TEST_TOKEN=tok-123456"), Files.readAllLines(out));
    }
}
