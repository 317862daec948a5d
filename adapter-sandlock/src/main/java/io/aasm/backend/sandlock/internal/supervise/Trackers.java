package io.aasm.backend.sandlock.internal.supervise;

import io.aasm.backend.sandlock.internal.capability.CapabilityCatalog;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Chooses how trees are torn down on this host: a cgroup v2 directory under aasm's own cgroup when
 * one can be created (pure file I/O under a configurable /sys root), else /proc scanning.
 */
public final class Trackers implements CapabilityCatalog.Teardown {
    private final Path sysRoot;
    private final Path procRoot;
    private volatile PrerequisiteStatus selfCheck;

    public Trackers(Path sysRoot, Path procRoot) {
        this.sysRoot = sysRoot;
        this.procRoot = procRoot;
    }

    /** A tracker for one launch; {@code delegated} are the environment names sandlock must keep. */
    public TreeTracker create(Set<String> delegated) {
        Optional<Path> base = cgroupBase();
        if (base.isPresent()) {
            Path dir = base.get().resolve("aasm-sandlock-" + UUID.randomUUID());
            try {
                Files.createDirectory(dir);
                if (Files.isWritable(dir.resolve("cgroup.procs"))) {
                    return new CgroupTree(dir, delegated);
                }
                Files.deleteIfExists(dir);
            } catch (IOException | UnsupportedOperationException e) {
                // Not delegated to us: fall back to scanning /proc.
            }
        }
        return new ProcWalkTree(new ProcessTable(procRoot), 5);
    }

    /** Our own cgroup v2 directory: the "0::" line of /proc/self/cgroup under a cgroup2 mount. */
    Optional<Path> cgroupBase() {
        String own;
        try {
            own = Files.readAllLines(procRoot.resolve("self/cgroup")).stream().filter(l -> l.startsWith("0::"))
                    .map(l -> l.substring(3)).findFirst().orElse(null);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (own == null) {
            return Optional.empty();
        }
        String rel = own.startsWith("/") ? own.substring(1) : own;
        for (Path mount : List.of(sysRoot.resolve("fs/cgroup/unified"), sysRoot.resolve("fs/cgroup"))) {
            Path candidate = rel.isEmpty() ? mount : mount.resolve(rel);
            if (Files.exists(candidate.resolve("cgroup.controllers")) && Files.isWritable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean wholeTree() {
        return cgroupBase().isPresent();
    }

    @Override
    public String describe() {
        return wholeTree() ? "own cgroup v2 per launch, cgroup.kill" : "/proc scan of descendants";
    }

    /**
     * Observes teardown once: a shell that leaves a setsid'd sleeper behind must leave nothing after
     * killAll. This is an effect check, so it can back the wall-clock prerequisite.
     */
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
        try (TreeTracker t = create(Set.of())) {
            Path pidFile = Files.createTempFile("aasm-sandlock-teardown", ".pid");
            List<String> cmd = t.wrap(List.of("/bin/sh", "-c", "setsid sleep 300 & echo $! > \"$0\"; sleep 300",
                    pidFile.toString()));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            pb.environment().clear();
            Process p = pb.start();
            t.started(p.toHandle());
            long escapee = awaitPid(pidFile);
            Thread.sleep(50); // let a /proc scan see the escapee, as it would in a real run
            t.killAll();
            p.waitFor();
            Files.deleteIfExists(pidFile);
            boolean survived = escapee > 0 && new ProcessTable(procRoot).read(escapee)
                    .filter(pr -> pr.state() != 'Z').isPresent();
            return survived ? new PrerequisiteStatus.Unsatisfied("a setsid descendant survived teardown ("
                    + describe() + ")") : new PrerequisiteStatus.Satisfied("a setsid descendant was killed by"
                    + " teardown (" + describe() + ")");
        } catch (IOException e) {
            return new PrerequisiteStatus.Unchecked("teardown self-check could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new PrerequisiteStatus.Unchecked("teardown self-check interrupted");
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
