package io.aasm.backend.landlockseccomp.internal.cgroup;

import io.aasm.backend.landlockseccomp.internal.host.CgroupLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-launch cgroups a dead supervisor left behind. Every group is named after its owner (the supervisor's
 * pid and start time, see {@link Owner}); a group whose owner is gone, or whose pid now belongs to another
 * process, is emptied (cgroup.kill, else its members killed) and removed. Groups of live supervisors (other
 * JVMs launching at the same time) are never touched.
 */
public final class Leftovers {
    private static final Pattern NAME = Pattern.compile("aasm-(\\d+)\\.(\\d+)-[0-9a-f-]+");

    private Leftovers() {
    }

    /** Reclaims what it can; returns the groups removed. */
    public static List<Path> reclaim(CgroupLayout layout, Path procRoot) {
        Set<Path> parents = new LinkedHashSet<>();
        for (String controller : List.of("memory", "pids", "cpu")) {
            layout.home(controller).ifPresent(h -> parents.add(h.ownDirectory()));
        }
        layout.killHome().ifPresent(h -> parents.add(h.ownDirectory()));
        List<Path> removed = new ArrayList<>();
        for (Path parent : parents) {
            try (var children = Files.newDirectoryStream(parent, "aasm-*")) {
                for (Path group : children) {
                    if (orphaned(group.getFileName().toString(), procRoot) && empty(group)) {
                        removed.add(group);
                    }
                }
            } catch (IOException e) {
                // a hierarchy we cannot list holds nothing we made
            }
        }
        return removed;
    }

    static boolean orphaned(String name, Path procRoot) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return false; // not named by an owner: not ours to judge
        }
        Optional<Long> started = Owner.startTime(procRoot, Long.parseLong(m.group(1)));
        return started.isEmpty() || started.get() != Long.parseLong(m.group(2));
    }

    private static boolean empty(Path group) {
        Path kill = group.resolve("cgroup.kill");
        try {
            if (Files.exists(kill)) {
                Files.writeString(kill, "1");
            } else {
                for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
                    if (!pid.isBlank()) {
                        ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // removal below still tells whether the group is gone
        }
        for (int i = 0; i < 100; i++) {
            try {
                Files.deleteIfExists(group);
                return true;
            } catch (IOException e) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }
}
