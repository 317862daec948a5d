package io.aasm.backend.landlockseccomp.internal.cgroup;

import io.aasm.backend.landlockseccomp.internal.host.CgroupLayout;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Per-launch cgroups, one per controller (v1 hierarchies are separate trees), created by the
 * supervisor before launch (or taken fresh from {@link CgroupSpares}); the launcher's init joins them before it
 * creates the program (which is created inside a cgroup2 group), so every process of the program's tree is counted.
 * Where the host has a writable cgroup2 mount, the tree also joins a teardown group there: closing
 * the placement writes {@code cgroup.kill} and waits until the group is empty, so no process of the
 * tree (setsid daemons included) outlives {@link #close()} or {@link #closeAfter}.
 */
public final class CgroupPlacement implements AutoCloseable {
    static final String TEARDOWN = "teardown";
    private static final long TEARDOWN_WAIT_NANOS = 5_000_000_000L;

    private final Map<String, Path> dirs;
    private boolean teardownGroup;

    private CgroupPlacement(Map<String, Path> dirs) {
        this.dirs = dirs;
    }

    public static CgroupPlacement none() {
        return new CgroupPlacement(new LinkedHashMap<>());
    }

    /**
     * Creates the limit groups and writes the limits (any failure removes what was created and
     * throws); adds the teardown group when {@code teardown} and the host allows it.
     */
    public static CgroupPlacement create(CgroupLayout layout, List<LandlockSeccompPlan.CgroupLimit> limits, boolean teardown)
            throws IOException {
        return create(layout, limits, teardown, CgroupSpares.none());
    }

    /**
     * The same with each group taken from {@code spares}: fresh (never joined, never used by a launch), so what this
     * launch may use is exactly what its limits say. Controllers sharing a hierarchy (cgroup2) share one group.
     */
    public static CgroupPlacement create(CgroupLayout layout, List<LandlockSeccompPlan.CgroupLimit> limits,
                                         boolean teardown, CgroupSpares spares) throws IOException {
        Map<String, Path> dirs = new LinkedHashMap<>();
        CgroupPlacement placement = new CgroupPlacement(dirs);
        try {
            for (LandlockSeccompPlan.CgroupLimit l : limits) {
                CgroupLayout.ControllerHome home = layout.home(l.controller())
                        .orElseThrow(() -> new IOException("no " + l.controller() + " controller on this host"));
                Path dir = dirs.get(l.controller());
                if (dir == null) {
                    Path parent = home.ownDirectory();
                    Path shared = dirs.values().stream().filter(d -> parent.equals(d.getParent())).findFirst()
                            .orElse(null);
                    dir = shared != null ? shared : spares.take(parent);
                    dirs.put(l.controller(), dir);
                }
                Files.writeString(dir.resolve(l.file()), l.value());
            }
            if (teardown) {
                layout.killHome().map(CgroupLayout.ControllerHome::ownDirectory).flatMap(spares::takeKillable)
                        .ifPresent(d -> dirs.put(TEARDOWN, d));
                placement.teardownGroup = dirs.containsKey(TEARDOWN);
            }
            return placement;
        } catch (IOException | RuntimeException e) {
            placement.close();
            throw e;
        }
    }

    /** Whether the whole tree sits in a group the supervisor can kill at once. */
    public boolean hasTeardownGroup() {
        return teardownGroup;
    }

    public boolean isEmpty() {
        return dirs.isEmpty();
    }

    /**
     * The files the launcher joins the groups by. In a v1 hierarchy the {@code tasks} file: the launcher's init is
     * single-threaded, and moving one thread takes no global lock, where a write to {@code cgroup.procs} waits for
     * an RCU grace period (about 11 ms under load: the largest stage of a launch; docs/benchmarks.md). cgroup2 has
     * no {@code tasks} file: there the launcher creates the program in the group instead (PROTOCOL.md, step 5).
     */
    public List<String> procsFiles() {
        List<String> out = new ArrayList<>();
        groups().forEach(d -> out.add(d.resolve(Files.exists(d.resolve("tasks")) ? "tasks" : "cgroup.procs")
                .toString()));
        return out;
    }

    public Map<String, Path> directories() {
        return Map.copyOf(dirs);
    }

    private List<Path> groups() {
        return new ArrayList<>(new LinkedHashSet<>(dirs.values()));
    }

    /** Pids still in any of the groups (empty after a clean teardown). */
    public List<Long> members() {
        List<Long> out = new ArrayList<>();
        for (Path d : groups()) {
            try {
                for (String line : Files.readAllLines(d.resolve("cgroup.procs"))) {
                    if (!line.isBlank()) {
                        out.add(Long.parseLong(line.trim()));
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // group already gone
            }
        }
        return out;
    }

    /**
     * Kills whatever is left in the groups and removes them; returns only when they are gone (rmdir
     * fails while a group is populated, so a removed group was empty) or the bounded wait is over.
     */
    @Override
    public void close() {
        kill();
        long deadline = System.nanoTime() + TEARDOWN_WAIT_NANOS;
        while (!dirs.isEmpty()) {
            dirs.values().removeIf(CgroupPlacement::removed);
            if (dirs.isEmpty() || System.nanoTime() >= deadline || !pause()) {
                return;
            }
            members().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
    }

    /**
     * Kills whatever is left and returns once no group has a member (the tree is dead: what the caller is told next
     * is final), leaving the removal of the empty groups to {@code later}. A group still populated when the bounded
     * wait ends is handled as {@link #close()} handles it.
     */
    public void closeAfter(Executor later) {
        later.execute(emptied());
    }

    /** The same as {@link #closeAfter}, returning the removal for the caller to run later (with its own). */
    public Runnable emptied() {
        kill();
        long deadline = System.nanoTime() + TEARDOWN_WAIT_NANOS;
        while (!vacant()) {
            if (System.nanoTime() >= deadline || !pause()) {
                close();
                return () -> { };
            }
            members().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
        List<Path> empty = groups();
        dirs.clear();
        return () -> empty.forEach(CgroupPlacement::removeEmpty);
    }

    private void kill() {
        Path kill = dirs.get(TEARDOWN);
        if (kill != null) {
            try {
                Files.writeString(kill.resolve("cgroup.kill"), "1");
            } catch (IOException e) {
                // the members are killed one by one instead
            }
        }
    }

    /** Whether no group lists a task (an exited task leaves the list before its parent reaps it). */
    private boolean vacant() {
        for (Path d : groups()) {
            try {
                if (Files.readAllBytes(d.resolve("cgroup.procs")).length > 0) {
                    return false;
                }
            } catch (IOException e) {
                // gone: nothing in it
            }
        }
        return true;
    }

    private static boolean removed(Path d) {
        try {
            Files.deleteIfExists(d);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** An empty group's removal; retried a while, since nothing can join it again (only this supervisor writes). */
    private static void removeEmpty(Path d) {
        for (int i = 0; i < 100 && !removed(d); i++) {
            if (!pause()) {
                return;
            }
        }
    }

    private static boolean pause() {
        try {
            Thread.sleep(2);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
