package io.aasm.backend.landlockseccomp.internal.cgroup;

import io.aasm.backend.landlockseccomp.internal.host.CgroupLayout;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Per-launch cgroups, one per controller (v1 hierarchies are separate trees), created by the
 * supervisor before launch; the launcher's init joins them before it creates the program (which is created
 * inside a cgroup2 group), so every process of the program's tree is counted.
 * Where the host has a writable cgroup2 mount, the tree also joins a teardown group there: closing
 * the placement writes {@code cgroup.kill} and waits until the group is empty, so no process of the
 * tree (setsid daemons included) outlives {@link #close()}.
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
        Map<String, Path> dirs = new LinkedHashMap<>();
        CgroupPlacement placement = new CgroupPlacement(dirs);
        // Named after this supervisor, so a successor can tell a dead owner's group from a live one's.
        String name = "aasm-" + Owner.self() + "-" + UUID.randomUUID();
        try {
            for (LandlockSeccompPlan.CgroupLimit l : limits) {
                CgroupLayout.ControllerHome home = layout.home(l.controller())
                        .orElseThrow(() -> new IOException("no " + l.controller() + " controller on this host"));
                Path dir = dirs.get(l.controller());
                if (dir == null) {
                    dir = home.ownDirectory().resolve(name);
                    Files.createDirectory(dir);
                    dirs.put(l.controller(), dir);
                }
                Files.writeString(dir.resolve(l.file()), l.value());
            }
            if (teardown) {
                teardownGroup(layout, name).ifPresent(d -> dirs.put(TEARDOWN, d));
                placement.teardownGroup = dirs.containsKey(TEARDOWN);
            }
            return placement;
        } catch (IOException | RuntimeException e) {
            placement.close();
            throw e;
        }
    }

    private static Optional<Path> teardownGroup(CgroupLayout layout, String name) {
        Optional<Path> parent = layout.killHome().map(CgroupLayout.ControllerHome::ownDirectory);
        if (parent.isEmpty() || !Files.isWritable(parent.get()) || !Files.exists(parent.get().resolve("cgroup.procs"))) {
            return Optional.empty();
        }
        try {
            Path d = Files.createDirectory(parent.get().resolve(name));
            if (Files.exists(d.resolve("cgroup.kill"))) {
                return Optional.of(d);
            }
            Files.deleteIfExists(d);
        } catch (IOException e) {
            // no teardown group: the launcher's own teardown still applies
        }
        return Optional.empty();
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
        dirs.values().forEach(d -> out.add(d.resolve(Files.exists(d.resolve("tasks")) ? "tasks" : "cgroup.procs")
                .toString()));
        return out;
    }

    public Map<String, Path> directories() {
        return Map.copyOf(dirs);
    }

    /** Pids still in any of the groups (empty after a clean teardown). */
    public List<Long> members() {
        List<Long> out = new ArrayList<>();
        for (Path d : dirs.values()) {
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
     * fails while a group is populated) or the bounded wait is over.
     */
    @Override
    public void close() {
        Path kill = dirs.get(TEARDOWN);
        if (kill != null) {
            try {
                Files.writeString(kill.resolve("cgroup.kill"), "1");
            } catch (IOException e) {
                // fall through to killing members one by one
            }
        }
        long deadline = System.nanoTime() + TEARDOWN_WAIT_NANOS;
        while (!dirs.isEmpty() && System.nanoTime() < deadline) {
            for (long pid : members()) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            dirs.values().removeIf(d -> {
                try {
                    Files.deleteIfExists(d);
                    return true;
                } catch (IOException e) {
                    return false;
                }
            });
            if (!dirs.isEmpty()) {
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
