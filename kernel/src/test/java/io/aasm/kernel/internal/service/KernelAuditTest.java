package io.aasm.kernel.internal.service;

import static io.aasm.kernel.internal.service.KernelFixture.bind;
import static io.aasm.kernel.internal.service.KernelFixture.kernel;
import static io.aasm.kernel.internal.service.KernelFixture.request;
import static io.aasm.kernel.internal.service.KernelFixture.sources;
import static io.aasm.kernel.internal.testing.Policies.policy;
import static io.aasm.kernel.internal.testing.Policies.stmt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.ports.audit.AuditCheck;
import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.audit.LaunchAudit;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Scope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every launch the kernel starts is handed to the audit logs before await() returns, failures included. */
class KernelAuditTest {
    @TempDir
    Path dir;

    /** Keeps what it is given; {@code failing} makes append throw as a full disk would. */
    static final class MemoryLog implements AuditLog {
        final List<LaunchAudit> got = new ArrayList<>();
        volatile boolean failing;

        @Override
        public synchronized String append(LaunchAudit launch) throws IOException {
            if (failing) {
                throw new IOException("No space left on device");
            }
            got.add(launch);
            return launch.launchId();
        }

        @Override
        public List<String> tail(int n) {
            return List.of();
        }

        @Override
        public Optional<String> show(String launchId) {
            return Optional.empty();
        }

        @Override
        public AuditCheck verify() {
            return new AuditCheck(got.size(), List.of());
        }
    }

    private KernelComponent kernelWith(MemoryLog log) {
        return kernelWith(log, new TestBackend("alpha", Caps.allStrong()));
    }

    private KernelComponent kernelWith(MemoryLog log, TestBackend backend) {
        KernelComponent k = kernel();
        sources(k).with("p.test", policy(Optional.empty(),
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(dir.toString())))));
        bind(k, backend, 0);
        k.addAuditLog(log);
        return k;
    }

    @Test
    void theReportAfterAwaitIsTheOneRecordedAndTheEvidenceIsAskedOnce() throws Exception {
        MemoryLog log = new MemoryLog();
        TestBackend backend = new TestBackend("alpha", Caps.allStrong());
        KernelComponent k = kernelWith(log, backend);
        LaunchSession s = k.launch(k.decide(request(Optional.of(IsolationClass.AUTO), Optional.empty(),
                Optional.of("p.test"), "sh", List.of("-c", "exit 3"), dir.toString())));
        // control: before await() nothing was recorded, and the session's own rule answers (no report yet)
        assertThrows(IllegalStateException.class, s::postRunReport);
        assertEquals(0, backend.calls("evidence"));
        assertEquals(3, s.await().shellStatus());
        assertEquals(1, backend.calls("evidence"), "the record's report asked the backend for its evidence");
        assertSame(log.got.get(0).report(), s.postRunReport(), "the caller's report is the audit record's");
        assertSame(s.postRunReport(), s.postRunReport());
        assertEquals(1, backend.calls("evidence"), "and the caller's report did not ask again");
    }

    @Test
    void aFinishedLaunchIsRecordedBeforeAwaitReturns() throws Exception {
        MemoryLog log = new MemoryLog();
        KernelComponent k = kernelWith(log);
        LaunchSession s = k.launch(k.decide(request(Optional.of(IsolationClass.AUTO), Optional.empty(),
                Optional.of("p.test"), "sh", List.of("-c", "exit 4"), dir.toString())));
        assertEquals(4, s.await().shellStatus());
        assertEquals(1, log.got.size(), "recorded by the time await() returned");
        LaunchAudit a = log.got.get(0);
        assertEquals("exited", a.report().outcome().orElseThrow().disposition());
        assertEquals(64, a.argumentsSha256().length());
        assertTrue(!a.endedAt().isBefore(a.startedAt()));
        assertEquals(Optional.empty(), s.auditProblem());
        assertEquals(Optional.of(a.launchId()), s.auditRecord(), "the id `aasm audit show` takes");
        s.await();
        assertEquals(1, log.got.size(), "one record per launch, however often await() is called");
    }

    @Test
    void aLogThatCannotWriteIsNamedOnTheSession() throws Exception {
        MemoryLog log = new MemoryLog();
        log.failing = true;
        KernelComponent k = kernelWith(log);
        LaunchSession s = k.launch(k.decide(request(Optional.of(IsolationClass.AUTO), Optional.empty(),
                Optional.of("p.test"), "true", List.of(), dir.toString())));
        assertEquals(0, s.await().shellStatus());
        assertTrue(s.auditProblem().orElseThrow().contains("No space left on device"), s.auditProblem().toString());
        assertEquals(Optional.empty(), s.auditRecord(), "no record id for a record that was not written");
    }

    @Test
    void aLaunchThatNeverStartedIsRecordedAsSuch() {
        MemoryLog log = new MemoryLog();
        KernelComponent k = kernelWith(log);
        LaunchDecision d = k.decide(request(Optional.of(IsolationClass.AUTO), Optional.empty(), Optional.of("p.test"),
                "/nonexistent/program", List.of(), dir.toString()));
        assertThrows(LaunchException.class, () -> k.launch(d));
        assertEquals(1, log.got.size());
        assertEquals("not_started", log.got.get(0).report().outcome().orElseThrow().disposition());
    }
}
