package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
 * The canary channel cannot be forged by the program: the guard reports the FIFO's first line only, and the
 * shim writes that line before the program exists. The program here writes a forged record to the FIFO as
 * its very first act (no sandbox in between, so nothing slows it); the guard still reports the shim's line.
 * The control differs by the shim's canary words alone: without them the program's line is the first one,
 * and the guard reports it — so the check would see a forgery if the order did not prevent it.
 */
class CanaryChannelTest {
    @TempDir
    Path dir;

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timers.shutdownNow();
    }

    private io.aasm.backend.sandlock.internal.guard.GuardReport reported(boolean shimCanaries, Path fifo) throws Exception {
        LaunchIds ids = new LaunchIds(new ProcessTable(Path.of("/proc")));
        Runs runs = Runs.embedded(dir.resolve("guard-cache"), new Runs.Places(ids, new Cgroups(Path.of("/sys"),
                Path.of("/proc"), ids), new SandlockState(Path.of("/dev/shm"), ids)), timers, 2000,
                AuthorityDrop.forThisProcess(Path.of("/proc")));
        String forged = "nonce=0123456789abcdef filesystem_read=denied/13";
        List<String> argv = new ArrayList<>(List.of(runs.actor().orElseThrow().toString(), "exec",
                ProgramFilter.hex(ProgramFilter.build(ProgramFilter.hostArch(), new ProgramFilter.Concerns(false))
                        .orElseThrow())));
        if (shimCanaries) {
            argv.addAll(List.of("canary:fifo=" + fifo, "canary:nonce=0123456789abcdef"));
        }
        argv.addAll(List.of("--", "/bin/sh", "-c", "echo '" + forged + "' > " + fifo));
        SandlockRun r = runs.start(argv, Optional.empty(), Map.of(), Path.of("/"),
                Runs.Stdio.toFile(dir.resolve("out-" + shimCanaries)), OptionalLong.of(30_000), false,
                List.of("canary:" + fifo));
        return r.waitFor().report();
    }

    @Test
    void theProgramCannotWriteTheFirstLine() throws Exception {
        Path fifo = dir.resolve("record");
        var first = reported(true, fifo);
        assertEquals(Optional.of("nonce=0123456789abcdef"), first.canary(),
                "the shim's line (no canary asked: the nonce alone), never the program's forged one: "
                + first.transcript());
        assertFalse(Files.exists(fifo) && !Files.isRegularFile(fifo), "the guard removed the FIFO");
        Files.deleteIfExists(fifo);
        // Control: the shim writes nothing, so the program's line is the first: the guard reports it.
        var control = reported(false, fifo);
        assertEquals(Optional.of("nonce=0123456789abcdef filesystem_read=denied/13"), control.canary(),
                control.transcript().toString());
    }
}
