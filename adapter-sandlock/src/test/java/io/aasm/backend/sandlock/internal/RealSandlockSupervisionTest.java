package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.sandlock.internal.supervise.ProcessTable;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import io.aasm.ports.evidence.DescriptorInventory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * aasm's supervision of a real sandlock run under its guard: how the program ended (signal deaths as
 * signals, not sandlock's exit 1), the wall clock and its evidence, termination, the teardown of the
 * whole tree (background and setsid descendants), the environment and the descriptor inventory.
 */
class RealSandlockSupervisionTest {
    @TempDir
    Path dir;

    private SandlockBackend backend;

    private SandlockBackend backend(Path sysRoot) {
        backend = Fixtures.realOrCannotHost(dir, sysRoot);
        return backend;
    }

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.deactivate();
        }
    }

    /** {@code /bin/sh -c script}, reads of the system plus the temp dir, writes to the temp dir. */
    private Execution launch(String script, ControlRequirement... more) throws Exception {
        List<ControlRequirement> reqs = new ArrayList<>(List.of(Fixtures.reads(dir.toString()),
                Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(dir.toString(), "/dev/null")))));
        reqs.addAll(List.of(more));
        return backend.prepare(Fixtures.plan(Fixtures.spec("/bin/sh", List.of("-c", script), reqs,
                Map.of()))).spawn();
    }

    /** Sandlock's own per-sandbox directory, named after the sandbox name the evidence records. */
    private Path stateDirOf(Execution h) throws java.io.IOException {
        String name = h.evidence().records().stream().map(EvidenceRecord::detail)
                .map(d -> java.util.regex.Pattern.compile("sandbox (aasm-[0-9-]+)").matcher(d))
                .filter(java.util.regex.Matcher::find).map(m -> m.group(1)).findFirst().orElseThrow();
        return Path.of("/dev/shm", "sandlock-" + Files.getAttribute(Path.of("/proc/self"), "unix:uid"), name);
    }

    static boolean alive(long pid) {
        return new ProcessTable(Path.of("/proc")).read(pid).filter(p -> p.state() != 'Z').isPresent();
    }

    static long pidFrom(Path file) throws Exception {
        for (int i = 0; i < 1000 && (!Files.exists(file) || Files.readString(file).isBlank()); i++) {
            Thread.sleep(10);
        }
        return Long.parseLong(Files.readString(file).strip());
    }

    @Test
    void exitCodeIsPassedThrough() throws Exception {
        backend(Path.of("/sys"));
        assertEquals(new ExitDisposition.Exited(7), launch("exit 7").await());
        assertEquals(new ExitDisposition.Exited(1), launch("exit 1").await(), "a real exit 1 stays exit 1");
    }

    @Test
    void signalDeathsAreReportedAsSignalsNotAsSandlocksExitOne() throws Exception {
        backend(Path.of("/sys"));
        ExitDisposition nine = launch("kill -9 $$").await();
        assertEquals(new ExitDisposition.Signalled(9), nine);
        assertEquals(137, nine.shellStatus());
        assertEquals(new ExitDisposition.Signalled(15), launch("kill -TERM $$").await());
        assertEquals(new ExitDisposition.Signalled(11), launch("kill -SEGV $$").await());
    }

    @Test
    void wallClockCeilingKillsTheWholeTreeAndLeavesAnEvidenceRecord() throws Exception {
        backend(Path.of("/sys"));
        Path pid = dir.resolve("sleeper.pid");
        Execution h = launch("sh -c 'sleep 300 & echo $! > " + pid + "; wait'; true",
                Fixtures.req(CapabilityDomain.RESOURCE, Fixtures.wallClock(1)));
        long sleeper = pidFrom(pid);
        assertEquals(new ExitDisposition.Signalled(9), h.await());
        assertFalse(alive(sleeper), "the grandchild outlived the wall-clock ceiling");
        List<EvidenceRecord> records = h.evidence().records();
        assertTrue(records.stream().anyMatch(r -> r.kind() == EvidenceKind.EXERCISED
                && r.domain().equals(Optional.of(CapabilityDomain.RESOURCE))
                && r.detail().contains("wall-clock ceiling of 1 s fired")), records.toString());
    }

    @Test
    void noCeilingRecordWhenTheProgramEndsInTime() throws Exception {
        backend(Path.of("/sys"));
        Execution h = launch("exit 0", Fixtures.req(CapabilityDomain.RESOURCE, Fixtures.wallClock(30)));
        assertEquals(new ExitDisposition.Exited(0), h.await());
        assertFalse(h.evidence().records().stream().anyMatch(r -> r.detail().contains("ceiling")
                && r.kind() == EvidenceKind.EXERCISED), "control: a ceiling that did not fire leaves no record");
    }

    @Test
    void gracefulTerminationReachesTheProgramAndTheTree() throws Exception {
        backend(Path.of("/sys"));
        Path pid = dir.resolve("g.pid");
        Execution h = launch("sleep 300 & echo $! > " + pid + "; wait");
        long sleeper = pidFrom(pid);
        assertTrue(h.terminate(TerminationRequest.GRACEFUL));
        assertEquals(new ExitDisposition.Signalled(15), h.await());
        assertFalse(alive(sleeper));
    }

    @Test
    void immediateTerminationKillsAProgramIgnoringTerm() throws Exception {
        backend(Path.of("/sys"));
        Path ready = dir.resolve("ready");
        Execution h = launch("trap '' TERM; echo $$ > " + ready + "; sleep 300; sleep 300");
        pidFrom(ready);
        Path state = stateDirOf(h);
        assertTrue(Files.isDirectory(state), "sandlock keeps a state directory while it runs: " + state);
        assertTrue(h.terminate(TerminationRequest.IMMEDIATE));
        assertEquals(new ExitDisposition.Signalled(9), h.await());
        assertFalse(h.terminate(TerminationRequest.IMMEDIATE), "nothing left to deliver to");
        assertFalse(Files.exists(state), "a killed sandlock's state directory was left behind (it would block a"
                + " later sandlock that reuses the name)");
    }

    @Test
    void backgroundDescendantIsSweptAtNormalExit() throws Exception {
        backend(Path.of("/sys"));
        Path pid = dir.resolve("bg.pid");
        Execution h = launch("sleep 300 & echo $! > " + pid + "; sleep 0.3; exit 0");
        assertEquals(new ExitDisposition.Exited(0), h.await());
        assertFalse(alive(pidFrom(pid)), "upstream #251: a background child outlived the run");
    }

    @Test
    void setsidDaemonDoesNotSurviveWithACgroup() throws Exception {
        backend(Path.of("/sys"));
        setsidDaemonDoesNotSurvive();
    }

    @Test
    void setsidDaemonDoesNotSurviveWithTheSubReaperAlone() throws Exception {
        backend(dir.resolve("no-sys")); // no cgroup can be created: the guard's sub-reaper holds the tree
        setsidDaemonDoesNotSurvive();
    }

    private void setsidDaemonDoesNotSurvive() throws Exception {
        Path pid = dir.resolve("daemon.pid");
        // The program's child daemonises with setsid and its parent exits at once: upstream #252's escape.
        Execution h = launch("sh -c 'setsid sleep 300 & echo $! > " + pid + "'; sleep 0.3; exit 0");
        assertEquals(new ExitDisposition.Exited(0), h.await());
        long daemon = pidFrom(pid);
        assertFalse(alive(daemon), "a setsid daemon escaped teardown");
    }

    /** Also the resident kernel's path: stdout is a descriptor the supervisor holds, reopened for the program. */
    @Test
    void sandlockStartsTheProgramWithOnlyTheDelegatedEnvironment() throws Exception {
        backend(Path.of("/sys"));
        Path out = dir.resolve("env.txt");
        try (java.io.FileOutputStream held = new java.io.FileOutputStream(out.toFile())) {
            int fd = fdOf(out);
            ExecutionSpec spec = new ExecutionSpec("/usr/bin/env", List.of(), "/", IdentityRef.anonymous(),
                    List.of(Fixtures.req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("AASM_TEST_TOKEN")))),
                    Map.of("AASM_TEST_TOKEN", "tok-123456"), CredentialPosture.none(), new Stdio.Descriptors(0, fd, 2));
            Execution h = backend.prepare(Fixtures.plan(spec)).spawn();
            assertEquals(new ExitDisposition.Exited(0), h.await());
        }
        assertEquals(List.of("AASM_TEST_TOKEN=tok-123456"), Files.readAllLines(out));
    }

    /** The number of this JVM's descriptor open on {@code file}, found through /proc/self/fd. */
    private static int fdOf(Path file) throws java.io.IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path p : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(p).equals(file)) {
                        return Integer.parseInt(p.getFileName().toString());
                    }
                } catch (java.io.IOException e) {
                    // closed meanwhile (the listing's own descriptor)
                }
            }
        }
        throw new IllegalStateException("no descriptor open on " + file);
    }

    @Test
    void aSandlockSetupFailureIsReportedAsNotStarted() throws Exception {
        backend(Path.of("/sys"));
        Execution h = launch("exit 0", Fixtures.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(
                SyscallMode.DENY, List.of("nosuchsyscall"))));
        ExitDisposition.NotStarted n = assertInstanceOf(ExitDisposition.NotStarted.class, h.await());
        assertEquals(LaunchFailureKind.BACKEND_ERROR, n.kind());
        assertEquals(125, n.shellStatus());
    }

    @Test
    void theDescriptorInventoryIsTakenAndClean() throws Exception {
        backend(Path.of("/sys"));
        Execution h = launch("exit 0");
        h.await();
        DescriptorInventory inv = h.descriptors().orElseThrow();
        assertTrue(inv.complete());
        assertEquals(List.of(0, 1, 2), inv.kept());
        assertEquals(List.of(), inv.residual(), "the status descriptor was observed closed by the probe");
        assertTrue(inv.clean());
        assertTrue(backend.plan(Fixtures.spec("/bin/true", List.of(), List.of(),
                Map.of())).plannedDescriptors().orElseThrow().clean());
    }
}
