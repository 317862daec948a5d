package io.aasm.backend.sandlock.internal.supervise;

import io.aasm.backend.sandlock.internal.capability.CapabilityCatalog;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * How the tree is torn down here (the guard's sub-reaper, plus a cgroup where one can be created),
 * and one observation that it works: a setsid descendant must not survive the guard's kill.
 */
public final class TreeTeardown implements CapabilityCatalog.Teardown {
    private final Runs runs;
    private final Path procRoot;
    private volatile PrerequisiteStatus selfCheck;

    public TreeTeardown(Runs runs, Path procRoot) {
        this.runs = runs;
        this.procRoot = procRoot;
    }

    /** The guard is a sub-reaper: every descendant stays its descendant, however it detaches. */
    @Override
    public boolean wholeTree() {
        return runs.unavailable().isEmpty();
    }

    @Override
    public String describe() {
        return runs.cgroups().base().isPresent()
                ? "guard sub-reaper + own cgroup v2 per launch (cgroup.kill; reclaimed on the next start if the guard"
                        + " itself was killed)"
                : "guard sub-reaper (no cgroup can be created here: descendants of a killed guard are not reclaimed)";
    }

    @Override
    public PrerequisiteStatus selfCheck() {
        PrerequisiteStatus s = selfCheck;
        if (s == null) {
            s = runSelfCheck();
            selfCheck = s;
        }
        return s;
    }

    private PrerequisiteStatus runSelfCheck() {
        Path pidFile = null;
        try {
            pidFile = Files.createTempFile("aasm-sandlock-teardown", ".pid");
            Path out = Files.createTempFile("aasm-sandlock-teardown", ".out");
            // The guard runs the shell directly (no sandlock): this checks aasm's teardown, not sandlock's.
            SandlockRun run = runs.start(List.of("/bin/sh", "-c", "setsid sleep 300 & echo $! > \"$0\"; sleep 300",
                    pidFile.toString()), java.util.Optional.empty(), Map.of(), Path.of("/"), Runs.Stdio.toFile(out),
                    OptionalLong.empty());
            long escapee = awaitPid(pidFile);
            run.terminate(io.aasm.ports.backend.TerminationRequest.IMMEDIATE);
            run.waitFor();
            Files.deleteIfExists(out);
            boolean survived = escapee > 0 && new ProcessTable(procRoot).read(escapee)
                    .filter(pr -> pr.state() != 'Z').isPresent();
            if (escapee <= 0) {
                return new PrerequisiteStatus.Unchecked("teardown self-check: the setsid descendant never started");
            }
            return survived ? new PrerequisiteStatus.Unsatisfied("a setsid descendant survived teardown ("
                    + describe() + ")") : new PrerequisiteStatus.Satisfied("a setsid descendant was killed by"
                    + " teardown (" + describe() + ")");
        } catch (IOException e) {
            return new PrerequisiteStatus.Unchecked("teardown self-check could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new PrerequisiteStatus.Unchecked("teardown self-check interrupted");
        } finally {
            if (pidFile != null) {
                try {
                    Files.deleteIfExists(pidFile);
                } catch (IOException e) {
                    // A temp file left behind is harmless.
                }
            }
        }
    }

    private static long awaitPid(Path file) throws IOException, InterruptedException {
        for (int i = 0; i < 500; i++) {
            String s = Files.readString(file).strip();
            if (!s.isEmpty()) {
                return Long.parseLong(s);
            }
            Thread.sleep(10);
        }
        return -1;
    }
}
