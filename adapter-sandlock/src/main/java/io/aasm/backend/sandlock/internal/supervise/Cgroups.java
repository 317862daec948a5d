package io.aasm.backend.sandlock.internal.supervise;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Per-launch cgroup v2 directories under this JVM's own cgroup (pure file I/O under configurable
 * /sys and /proc roots), named {@code aasm-sandlock-<launch id>}: the id names the owning JVM, so the
 * next start can tell a group left by a killed predecessor (owner gone) from a live launch of another
 * aasm process (owner alive), and reclaim only the former.
 */
public final class Cgroups {
    static final String PREFIX = "aasm-sandlock-";
    /** Groups of earlier adapter versions carry no owner: removed only when empty and clearly stale. */
    private static final Pattern LEGACY = Pattern.compile(Pattern.quote(PREFIX) + "[0-9a-f-]{36}");
    private static final Duration LEGACY_AGE = Duration.ofMinutes(2);

    private final Path sysRoot;
    private final Path procRoot;
    private final LaunchIds ids;

    public Cgroups(Path sysRoot, Path procRoot, LaunchIds ids) {
        this.sysRoot = sysRoot;
        this.procRoot = procRoot;
        this.ids = ids;
    }

    /** Our own cgroup v2 directory (the "0::" line of /proc/self/cgroup), when we may create groups in it. */
    public Optional<Path> base() {
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

    /** A new, empty group for the launch {@code id}, or empty when none can be created here. */
    public Optional<Path> create(String id) {
        Optional<Path> base = base();
        if (base.isEmpty()) {
            return Optional.empty();
        }
        Path dir = base.get().resolve(PREFIX + id);
        try {
            Files.createDirectory(dir);
            if (Files.isWritable(dir.resolve("cgroup.procs"))) {
                return Optional.of(dir);
            }
            Files.deleteIfExists(dir);
        } catch (IOException | UnsupportedOperationException e) {
            // Not delegated to us: the guard's sub-reaper alone holds the tree.
        }
        return Optional.empty();
    }

    /**
     * Kills and removes every group whose owner is gone (its guard was killed with it, so nothing
     * else would), plus stale empty groups of earlier versions. Returns how many groups were removed.
     */
    public int reclaim() {
        Optional<Path> base = base();
        if (base.isEmpty()) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(base.get(), PREFIX + "*")) {
            for (Path dir : ds) {
                String name = dir.getFileName().toString();
                if (ids.ownerGone(name, PREFIX)) {
                    removed += empty(dir) ? 1 : 0;
                } else if (LEGACY.matcher(name).matches() && stale(dir) && !populated(dir)) {
                    removed += remove(dir) ? 1 : 0;
                }
            }
        } catch (IOException e) {
            // An unreadable base reclaims nothing; the next start tries again.
        }
        return removed;
    }

    private static boolean stale(Path dir) {
        try {
            FileTime t = Files.getLastModifiedTime(dir);
            return t.toInstant().isBefore(Instant.now().minus(LEGACY_AGE));
        } catch (IOException e) {
            return false;
        }
    }

    /** cgroup.kill (or member by member before 5.14) until the group is empty, then rmdir. */
    public static boolean empty(Path dir) {
        for (int round = 0; round < 400 && populated(dir); round++) {
            try {
                if (Files.exists(dir.resolve("cgroup.kill"))) {
                    Files.writeString(dir.resolve("cgroup.kill"), "1");
                } else {
                    members(dir).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
                }
                Thread.sleep(5);
            } catch (IOException e) {
                members(dir).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return remove(dir);
    }

    static boolean remove(Path dir) {
        for (int i = 0; i < 100; i++) {
            try {
                Files.deleteIfExists(dir);
                return true;
            } catch (IOException e) {
                // Busy until the last member is reaped by its parent; retry briefly.
                try {
                    Thread.sleep(10);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }

    static boolean populated(Path dir) {
        try {
            return Files.readAllLines(dir.resolve("cgroup.events")).stream().noneMatch(l -> l.equals("populated 0"));
        } catch (IOException e) {
            return !members(dir).isEmpty();
        }
    }

    static List<Long> members(Path dir) {
        try {
            return Files.readAllLines(dir.resolve("cgroup.procs")).stream().filter(l -> !l.isBlank())
                    .map(l -> Long.parseLong(l.strip())).toList();
        } catch (IOException | NumberFormatException e) {
            return List.of();
        }
    }
}
