package io.aasm.backend.nativ.internal.cgroup;

import io.aasm.backend.nativ.internal.host.CgroupLayout;
import io.aasm.backend.nativ.internal.lower.NativePlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Per-launch cgroups, one per controller (v1 hierarchies are separate trees), created by the
 * supervisor before launch; the launcher joins them before forking, so every descendant is counted.
 */
public final class CgroupPlacement implements AutoCloseable {
    private final Map<String, Path> dirs;

    private CgroupPlacement(Map<String, Path> dirs) {
        this.dirs = dirs;
    }

    public static CgroupPlacement none() {
        return new CgroupPlacement(Map.of());
    }

    /** Creates the groups and writes the limits; any failure removes what was created and throws. */
    public static CgroupPlacement create(CgroupLayout layout, List<NativePlan.CgroupLimit> limits) throws IOException {
        Map<String, Path> dirs = new LinkedHashMap<>();
        CgroupPlacement placement = new CgroupPlacement(dirs);
        String name = "aasm-" + UUID.randomUUID();
        try {
            for (NativePlan.CgroupLimit l : limits) {
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
            return placement;
        } catch (IOException | RuntimeException e) {
            placement.close();
            throw e;
        }
    }

    /** The cgroup.procs files the launcher writes itself into. */
    public List<String> procsFiles() {
        List<String> out = new ArrayList<>();
        dirs.values().forEach(d -> out.add(d.resolve("cgroup.procs").toString()));
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

    /** Belt and braces after the launcher's own teardown: SIGKILL every member, then remove the groups. */
    @Override
    public void close() {
        for (int attempt = 0; attempt < 50 && !dirs.isEmpty(); attempt++) {
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
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
