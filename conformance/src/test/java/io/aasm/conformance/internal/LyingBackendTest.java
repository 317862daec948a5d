package io.aasm.conformance.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.aasm.conformance.internal.catalogue.Catalogue;
import io.aasm.conformance.internal.catalogue.Scenario;
import io.aasm.conformance.internal.run.Outcome;
import io.aasm.conformance.internal.run.SuiteResult;
import io.aasm.conformance.internal.run.SuiteRunner;
import io.aasm.conformance.internal.run.Verdict;
import io.aasm.kernel.internal.service.KernelComponent;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A backend that claims prevention and enforces nothing fails the suite, cell by cell. */
class LyingBackendTest {
    static final Set<String> SAMPLE = Set.of("fs-read-absolute", "fs-write-rename-in", "net-tcp-unlisted-loopback-port",
            "ipc-sysv-shared-memory", "cred-outside-process-environ", "proc-setsid-daemon", "res-file-size-ceiling");

    @Test
    void everyClaimOfALyingBackendIsCaught() throws Exception {
        KernelComponent kernel = Components.kernel();
        Components.bind(kernel, LyingBackend.ID, new LyingBackend());
        List<Scenario> sample = Catalogue.all().stream().filter(s -> SAMPLE.contains(s.name())).toList();
        assertEquals(SAMPLE.size(), sample.size());
        SuiteResult r = new SuiteRunner(kernel).run(List.of(LyingBackend.ID), sample, v -> { });
        for (Verdict v : r.verdicts()) {
            assertEquals(Outcome.ESCAPED_UNDER_CLAIMED_PREVENTION, v.outcome(), v.scenario() + ": " + v.detail());
        }
        assertFalse(r.passed());
    }
}
