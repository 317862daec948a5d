package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
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

    /**
     * Forks 30 children, each of which writes a line to {@code started} and then sleeps as {@code marker}, and
     * returns only once every child that was forked has written its line. Why it waits: at the ceiling the
     * spawning shell meets "Cannot fork" and ends; had the program ended with it, the tree would be torn down
     * while children forked just before were still waiting for a CPU, and a loaded machine counted 0 children
     * started (a ceiling of 4 on this host, load 13: 31 of 60 runs). A trailing {@code sleep} cannot hold the
     * tree: it needs a fork, which the ceiling refuses. So the spawning loop runs in a subshell of its own (the
     * fork failure ends only that one) and records each fork that returned in {@code forked}; the shell then
     * waits with builtins alone until {@code started} has as many lines (bounded by {@link #WALL_CLOCK}: a child
     * that never wrote ends the launch by the deadline, and the counts then differ).
     */
    static String forkBomb(Path started, Path forked, String marker) {
        return "(i=0; while [ $i -lt 30 ]; do (echo x >> " + started + "; exec sleep " + marker + ") & echo f >> "
                + forked + "; i=$((i+1)); done); "
                + "while :; do f=0; while read l; do f=$((f+1)); done < " + forked
                + "; s=0; while read l; do s=$((s+1)); done < " + started + "; [ $s -ge $f ] && break; done";
    }

    /** Only a bound on the wait above: a launch that reaches it was killed and fails the count. */
    static final ControlRequirement WALL_CLOCK = req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(),
            OptionalLong.empty(), OptionalLong.of(120), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty()));

    private static long lines(Path p) throws Exception {
        return Files.readAllLines(p).size();
    }

    @Test
    void ceilingLimitsAForkBombAndTheTreeIsTornDown() throws Exception {
        Harness h = Harness.shared();
        Path out = Files.createFile(tmp.resolve("started"));
        Path forked = Files.createFile(tmp.resolve("forked"));
        String marker = "7.31" + ProcessHandle.current().pid() % 1000;
        String action = forkBomb(out, forked, marker);
        ExitDisposition ended = h.sh(action, tmp, req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(10)),
                WALL_CLOCK);
        long limited = lines(out);
        assertEquals(lines(forked), limited, "every child forked had started before the tree ended; the launch ended "
                + ended);
        assertTrue(limited > 0 && limited < 10, "at most 10 tasks in the tree (init and the shells included); started "
                + limited + ", the launch ended " + ended);
        assertEquals(0, survivors(marker), "no sleeper survives the end of the program");
        Files.write(out, new byte[0]);
        Files.write(forked, new byte[0]);
        h.sh(action, tmp, req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(64)), WALL_CLOCK);
        assertEquals(30, lines(out), "control: a ceiling of 64 lets all 30 start");
        assertEquals(0, survivors(marker), "teardown: every sleeper was killed with the program");
    }
}
