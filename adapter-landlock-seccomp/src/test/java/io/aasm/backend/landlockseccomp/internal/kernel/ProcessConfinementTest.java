package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Process creation: deny (seccomp) and ceiling (pids controller), with teardown of the whole tree. */
class ProcessConfinementTest {
    @TempDir
    Path tmp;

    static long survivors(String marker) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .count();
    }

    @Test
    void deniedGrandchildNeverRuns() throws Exception {
        Harness h = Harness.shared();
        Path out = tmp.resolve("ran");
        h.sh("echo ran > " + out, tmp, req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain()));
        assertFalse(Files.exists(out), "the grandchild needs fork, which is denied");
        h.sh("echo ran > " + out, tmp);
        assertEquals("ran\n", Files.readString(out), "control: without the requirement the grandchild runs");
    }

    @Test
    void ceilingLimitsAForkBombAndTheTreeIsTornDown() throws Exception {
        Harness h = Harness.shared();
        Path out = tmp.resolve("started");
        String marker = "7.31" + ProcessHandle.current().pid() % 1000;
        String action = "i=0; while [ $i -lt 30 ]; do (echo x >> " + out + "; exec sleep " + marker + ") & i=$((i+1)); done; sleep 2";
        ExitDisposition ended = h.sh(action, tmp, req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(10)));
        long limited = Files.exists(out) ? Files.readAllLines(out).size() : 0;
        assertTrue(limited > 0 && limited < 10, "at most 10 tasks in the tree (launcher, init, shells included); started "
                + limited + ", the launch ended " + ended);
        assertEquals(0, survivors(marker), "no sleeper survives the end of the program");
        Files.deleteIfExists(out);
        h.sh(action, tmp, req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(64)));
        assertEquals(30, Files.readAllLines(out).size(), "control: a ceiling of 64 lets all 30 start");
        assertEquals(0, survivors(marker), "teardown: every sleeper was killed with the program");
    }
}
