package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;


import io.aasm.backend.sandlock.internal.guard.GuardReport;
import io.aasm.backend.sandlock.internal.harden.AuthorityDrop;
import io.aasm.backend.sandlock.internal.harden.ProgramFilter;
import io.aasm.backend.sandlock.internal.supervise.Cgroups;
import io.aasm.backend.sandlock.internal.supervise.LaunchIds;
import io.aasm.backend.sandlock.internal.supervise.ProcessTable;
import io.aasm.backend.sandlock.internal.supervise.Runs;
import io.aasm.backend.sandlock.internal.supervise.SandlockRun;
import io.aasm.backend.sandlock.internal.supervise.SandlockState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The credential canary's broken arm. sandlock cannot be told to leave keyctl out of its default blocklist
 * ("individual syscalls cannot be re-allowed"), so no sandlock plan can be broken for it; the shim is run
 * here with no sandbox around it at all, which is the boundary without the rule. Its keyctl reaches the
 * caller's keyring, the record says so, and the program (which would write a marker) never runs: 125.
 * The control, the same word inside sandlock and denied there, is RealSandlockCanaryTest's every-domain run.
 */
class ShimKeyringCanaryTest {
    @TempDir
    Path dir;

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timers.shutdownNow();
    }

    @Test
    void aReachableKeyringRefusesTheLaunchBeforeTheProgram() throws Exception {
        LaunchIds ids = new LaunchIds(new ProcessTable(Path.of("/proc")));
        Runs runs = Runs.embedded(dir.resolve("guard-cache"), new Runs.Places(ids, new Cgroups(Path.of("/sys"),
                Path.of("/proc"), ids), new SandlockState(Path.of("/dev/shm"), ids)), timers, 2000,
                AuthorityDrop.forThisProcess(Path.of("/proc")));
        Path fifo = dir.resolve("record");
        Path marker = dir.resolve("marker");
        List<String> argv = new ArrayList<>(List.of(runs.actor().orElseThrow().toString(), "exec",
                ProgramFilter.hex(ProgramFilter.build(ProgramFilter.hostArch(), new ProgramFilter.Concerns(false))
                        .orElseThrow()), "canary:fifo=" + fifo, "canary:nonce=0123456789abcdef", "canary:keyring",
                "--", "/bin/sh", "-c", "echo ran > " + marker));
        SandlockRun r = runs.start(argv, Optional.empty(), Map.of(), Path.of("/"),
                Runs.Stdio.toFile(dir.resolve("out")), OptionalLong.of(30_000), false, List.of("canary:" + fifo));
        SandlockRun.Ended ended = r.waitFor();
        assertEquals(Optional.of("nonce=0123456789abcdef credential=passed/0"), ended.report().canary(),
                ended.report().transcript().toString());
        // No sandlock around it: the guard reports the shim's own exit status, 125 (refused before the program).
        assertEquals(Optional.of(new GuardReport.End.Code(125)), ended.report().end(), ended.report().transcript().toString());
        assertFalse(Files.exists(marker), "the program must not run after the keyring canary got through");
    }
}
