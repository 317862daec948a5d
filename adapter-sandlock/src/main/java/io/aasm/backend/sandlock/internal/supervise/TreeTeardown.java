package io.aasm.backend.sandlock.internal.supervise;

import io.aasm.backend.sandlock.internal.capability.CapabilityCatalog;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How the tree is torn down here (the guard's sub-reaper, plus a cgroup where one can be created),
 * and one observation that it works: a setsid descendant must not survive the guard's kill.
 *
 * <p>The observation is remembered per boot ({@link TeardownCheckCache}), so the capabilities of a cold
 * activation do not start and kill a guard, a shell and a {@code setsid} child each time. A launch that relies
 * on the teardown (one with a wall-clock ceiling, {@link #forLaunch()}) never rests on the remembered verdict
 * alone: the check runs in this process before such a launch is planned, once per process.
 */
public final class TreeTeardown implements CapabilityCatalog.Teardown {
    private final Runs runs;
    private final Path procRoot;
    private final Optional<TeardownCheckCache> cache;
    /** Observed by this process. */
    private volatile PrerequisiteStatus selfCheck;
    /** Observed by this process or remembered from an earlier one in this boot. */
    private volatile PrerequisiteStatus known;

    /** No verdict is remembered across processes: each process checks once. */
    public TreeTeardown(Runs runs, Path procRoot) {
        this(runs, procRoot, Optional.empty());
    }

    public TreeTeardown(Runs runs, Path procRoot, Optional<TeardownCheckCache> cache) {
        this.runs = runs;
        this.procRoot = procRoot;
        this.cache = cache;
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

    /** This process's observation, else one remembered in this boot with the same key, else a fresh check. */
    @Override
    public synchronized PrerequisiteStatus selfCheck() {
        if (known != null) {
            return known;
        }
        if (selfCheck == null && cache.isPresent()) {
            Optional<TeardownCheckCache.Entry> hit = cache.get().load(key());
            if (hit.isPresent()) {
                known = remembered(hit.get());
                return known;
            }
        }
        return provenHere();
    }

    /** The teardown as a launch that relies on it sees it: checked in this process. */
    @Override
    public CapabilityCatalog.Teardown forLaunch() {
        return new CapabilityCatalog.Teardown() {
            @Override
            public boolean wholeTree() {
                return TreeTeardown.this.wholeTree();
            }

            @Override
            public PrerequisiteStatus selfCheck() {
                return provenHere();
            }

            @Override
            public String describe() {
                return TreeTeardown.this.describe();
            }
        };
    }

    /** Runs the check in this process unless it already ran here; remembers an observation for this boot. */
    synchronized PrerequisiteStatus provenHere() {
        if (selfCheck == null) {
            String key = cache.isPresent() ? key() : "";
            PrerequisiteStatus s = runSelfCheck();
            if (cache.isPresent()) {
                cache.get().store(key, s, java.time.Instant.now());
            }
            selfCheck = s;
            known = s;
        }
        return selfCheck;
    }

    /** Whether this process ran the check itself (a remembered verdict is not that). */
    boolean checkedHere() {
        return selfCheck != null;
    }

    private String key() {
        return cache.orElseThrow().key(runs.guardDigest(), runs.cgroups().base().map(Path::toString).orElse("none"),
                runs.authority().option());
    }

    /** Says what it is: an observation of an earlier process in this boot, with its time. */
    private static PrerequisiteStatus remembered(TeardownCheckCache.Entry e) {
        String when = " (observed " + e.observedAt() + " in this boot with this guard and cgroup; remembered per boot)";
        return e.status() instanceof PrerequisiteStatus.Satisfied s ? new PrerequisiteStatus.Satisfied(
                s.observation() + when) : new PrerequisiteStatus.Unsatisfied(
                ((PrerequisiteStatus.Unsatisfied) e.status()).detail() + when);
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
