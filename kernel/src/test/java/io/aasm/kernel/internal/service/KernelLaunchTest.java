package io.aasm.kernel.internal.service;

import static io.aasm.kernel.internal.service.KernelFixture.bind;
import static io.aasm.kernel.internal.service.KernelFixture.kernel;
import static io.aasm.kernel.internal.service.KernelFixture.request;
import static io.aasm.kernel.internal.service.KernelFixture.sources;
import static io.aasm.kernel.internal.testing.Policies.policy;
import static io.aasm.kernel.internal.testing.Policies.stmt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** launch(): real processes, real files, real exit statuses. */
class KernelLaunchTest {

    @TempDir
    Path dir;

    private static LaunchDecision unconfined(KernelComponent k, String program, List<String> args, String workdir) {
        return k.decide(request(Optional.of(IsolationClass.NONE), Optional.empty(), Optional.empty(), program, args,
                workdir));
    }

    @Test
    void unconfinedLaunchRunsTheProgramInTheWorkingDirectoryWithTheCallerEnvironment() throws Exception {
        KernelComponent k = kernel();
        LaunchDecision d = unconfined(k, "sh", List.of("-c", "printf '%s:%s' \"$LANG\" \"$(pwd)\" > out.txt"),
                dir.toString());
        LaunchSession s = k.launch(d);
        assertEquals(new ExitDisposition.Exited(0), s.await());
        assertEquals("C:" + dir.toRealPath(), Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8));
        IsolationReport post = s.postRunReport();
        assertEquals(ReportStage.POST_RUN, post.stage());
        assertEquals(ReportedPosture.NO_BOUNDARY, post.posture());
        assertEquals(0, post.outcome().orElseThrow().shellStatus());
    }

    @Test
    void unconfinedLaunchPassesTheExitCode() throws Exception {
        KernelComponent k = kernel();
        LaunchSession s = k.launch(unconfined(k, "/bin/sh", List.of("-c", "exit 7"), dir.toString()));
        assertEquals(7, s.await().shellStatus());
        assertEquals(7, s.await().shellStatus(), "await is repeatable");
    }

    @Test
    void aSignalledProgramReports128PlusTheSignal() throws Exception {
        KernelComponent k = kernel();
        LaunchSession s = k.launch(unconfined(k, "sh", List.of("-c", "kill -TERM $$"), dir.toString()));
        assertEquals(128 + 15, s.await().shellStatus());
    }

    @Test
    void terminateEndsAnUnconfinedProgram() throws Exception {
        KernelComponent k = kernel();
        LaunchSession s = k.launch(unconfined(k, "sh", List.of("-c", "exec sleep 600"), dir.toString()));
        assertTrue(s.terminate(io.aasm.ports.backend.TerminationRequest.GRACEFUL));
        assertEquals(128 + 15, s.await().shellStatus());
    }

    @Test
    void gracefulTerminationReachesTheProgramBeforeItsChildren() throws Exception {
        KernelComponent k = kernel();
        // The shell waits on a child; if the child died first, `wait` would return 0 and the
        // program would exit 0 without ever running its own TERM handler.
        String script = "trap 'echo got > got.txt; exit 3' TERM; sleep 600 & echo $! > child.pid; wait";
        LaunchSession s = k.launch(unconfined(k, "sh", List.of("-c", script), dir.toString()));
        Path pidFile = dir.resolve("child.pid");
        for (int i = 0; i < 600 && !(Files.exists(pidFile) && Files.size(pidFile) > 0); i++) {
            Thread.sleep(50);
        }
        long child = Long.parseLong(Files.readString(pidFile, StandardCharsets.UTF_8).trim());
        try {
            Thread.sleep(100); // let the shell reach `wait`
            assertTrue(s.terminate(io.aasm.ports.backend.TerminationRequest.GRACEFUL));
            assertEquals(3, s.await().shellStatus());
            assertEquals("got\n", Files.readString(dir.resolve("got.txt"), StandardCharsets.UTF_8));
            Optional<ProcessHandle> left = ProcessHandle.of(child);
            for (int i = 0; i < 100 && left.map(ProcessHandle::isAlive).orElse(false); i++) {
                Thread.sleep(50);
            }
            assertFalse(left.map(ProcessHandle::isAlive).orElse(false), "the program's child outlived the launch");
        } finally {
            ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aMissingProgramFailsLaunchWith127BeforeAnythingStarts() {
        KernelComponent k = kernel();
        LaunchDecision d = unconfined(k, "no-such-program-aasm", List.of(), dir.toString());
        LaunchException e = assertThrows(LaunchException.class, () -> k.launch(d));
        assertEquals(LaunchFailureKind.NOT_FOUND, e.kind());
        assertEquals(127, new ExitDisposition.NotStarted(e.kind(), e.getMessage()).shellStatus());
        LaunchDecision rel = unconfined(k, "./missing.sh", List.of(), dir.toString());
        assertEquals(LaunchFailureKind.NOT_FOUND, assertThrows(LaunchException.class, () -> k.launch(rel)).kind());
    }

    @Test
    void aNonExecutableProgramFailsLaunchWith126() throws Exception {
        Path script = Files.writeString(dir.resolve("script.sh"), "#!/bin/sh\ntouch ran\n");
        KernelComponent k = kernel();
        LaunchDecision d = unconfined(k, "./script.sh", List.of(), dir.toString());
        LaunchException e = assertThrows(LaunchException.class, () -> k.launch(d));
        assertEquals(LaunchFailureKind.NOT_EXECUTABLE, e.kind());
        assertEquals(126, new ExitDisposition.NotStarted(e.kind(), e.getMessage()).shellStatus());
        assertFalse(Files.exists(dir.resolve("ran")));
        assertTrue(Files.exists(script));
    }

    @Test
    void aMissingWorkingDirectoryFailsBeforeAnythingStarts() {
        KernelComponent k = kernel();
        LaunchDecision d = unconfined(k, "true", List.of(), dir.resolve("absent").toString());
        LaunchException e = assertThrows(LaunchException.class, () -> k.launch(d));
        assertEquals(LaunchFailureKind.BACKEND_ERROR, e.kind());
        assertTrue(e.getMessage().contains("is not a directory"), e.getMessage());
    }

    @Test
    void aBackendWhoseEvidenceThrowsStillGivesAPostRunReportNamingTheFault() throws Exception {
        KernelComponent k = kernel();
        sources(k).with("p.test", policy(Optional.empty(),
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(dir.toString())))));
        TestBackend alpha = new TestBackend("alpha", Caps.allStrong()).throwing("evidence");
        bind(k, alpha, 0);
        LaunchSession s = k.launch(k.decide(request(Optional.of(IsolationClass.AUTO), Optional.empty(),
                Optional.of("p.test"), "true", List.of(), dir.toString())));
        assertEquals(0, s.await().shellStatus());
        IsolationReport post = s.postRunReport();
        assertTrue(post.postureDetail().orElseThrow().contains("evidence() threw IllegalStateException"));
        assertTrue(post.evidence().isEmpty());
    }

    @Test
    void aRefusedDecisionCannotBeLaunched() {
        KernelComponent k = kernel();
        LaunchDecision d = k.decide(request(IsolationClass.AUTO, null));
        assertInstanceOf(LaunchDecision.Refused.class, d);
        assertEquals(LaunchFailureKind.BOUNDARY_REFUSED,
                assertThrows(LaunchException.class, () -> k.launch(d)).kind());
    }

    @Test
    void confinedLaunchGoesThroughTheBackendWithOnlyDelegatedEnvironment() throws Exception {
        KernelComponent k = kernel();
        sources(k).with("p.test", policy(Optional.empty(),
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(dir.toString()))),
                stmt(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("LANG")))));
        TestBackend alpha = new TestBackend("alpha", Caps.allStrong());
        alpha.evidence = new EnforcementEvidence("alpha", List.of(
                new EvidenceRecord(EvidenceKind.DECISION, Optional.of(CapabilityDomain.FILESYSTEM_WRITE),
                        ClaimTerm.DENIED_BEFORE_EXECUTION, "write outside the grant denied")));
        bind(k, alpha, 0);
        LaunchDecision d = k.decide(request(Optional.of(IsolationClass.AUTO), Optional.empty(), Optional.of("p.test"),
                "sh", List.of("-c", "printf '%s|%s' \"$LANG\" \"$API_TOKEN\" > env.txt; exit 3"), dir.toString()));
        LaunchDecision.Confined c = assertInstanceOf(LaunchDecision.Confined.class, d);
        assertEquals(ClaimTerm.PLANNED, c.report().row(CapabilityDomain.FILESYSTEM_WRITE).claim());
        LaunchSession s = k.launch(c);
        assertEquals(3, s.await().shellStatus());
        assertEquals("C|", Files.readString(dir.resolve("env.txt")));
        assertEquals(1, alpha.calls("prepare"));
        assertEquals(1, alpha.calls("spawn"));
        IsolationReport post = s.postRunReport();
        assertEquals(ReportStage.POST_RUN, post.stage());
        assertEquals(ClaimTerm.DENIED_BEFORE_EXECUTION, post.row(CapabilityDomain.FILESYSTEM_WRITE).claim());
        assertEquals(EvidenceBasis.DECISION, post.row(CapabilityDomain.FILESYSTEM_WRITE).evidence());
        assertEquals(ClaimTerm.UNMEASURED, post.row(CapabilityDomain.CREDENTIAL).claim());
    }

    @Test
    void aBackendThatThrowsDuringPrepareIsABackendErrorNotACrash() {
        KernelComponent k = kernel();
        sources(k).with("p.test", policy(Optional.empty(),
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(dir.toString())))));
        TestBackend alpha = new TestBackend("alpha", Caps.allStrong()).throwing("prepare");
        bind(k, alpha, 0);
        LaunchDecision d = k.decide(request(Optional.of(IsolationClass.AUTO), Optional.empty(), Optional.of("p.test"),
                "true", List.of(), dir.toString()));
        LaunchException e = assertThrows(LaunchException.class, () -> k.launch(d));
        assertEquals(LaunchFailureKind.BACKEND_ERROR, e.kind());
        assertTrue(e.getMessage().contains("prepare() threw IllegalStateException"), e.getMessage());
        assertEquals(0, alpha.calls("spawn"));
    }
}
