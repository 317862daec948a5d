package io.aasm.backend.landlockseccomp.internal.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Fresh per-launch groups made ahead, off the request's path: a launch takes one per hierarchy and writes only its
 * own limits. A group is handed out once and removed after its launch: <b>never reused</b>. A v1 memory group
 * keeps the page cache its tasks touched charged to it after they exit (measured: docs/benchmarks.md), so a reused
 * group could start a launch with a previous launch's charge against its ceiling; a fresh group starts with no
 * member, no charge and every limit at the parent's default, exactly like one made during the request.
 *
 * <p>Spares are made per parent directory on first demand (so a hierarchy no policy uses gets none), up to
 * {@code perParent} each, by the given executor; {@link #close()} removes those never used. They are named like any
 * launch's group (after this supervisor), so a supervisor killed outright leaves them to the next start's
 * {@link Leftovers}. {@link #none()} makes every group at the moment it is taken.
 */
public final class CgroupSpares implements AutoCloseable {
    private final int perParent;
    private final Executor maker;
    private final Map<Path, Queue<Path>> ready = new ConcurrentHashMap<>();
    private final AtomicBoolean queued = new AtomicBoolean();
    private final Map<Path, Boolean> killable = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private CgroupSpares(int perParent, Executor maker) {
        this.perParent = perParent;
        this.maker = maker;
    }

    /** No spares: each group is made when a launch takes it. */
    public static CgroupSpares none() {
        return new CgroupSpares(0, Runnable::run);
    }

    /** Up to {@code perParent} spares per hierarchy, made by {@code maker} (a background thread). */
    public static CgroupSpares ahead(int perParent, Executor maker) {
        return new CgroupSpares(Math.max(0, perParent), maker);
    }

    /** A fresh, never-used group under {@code parent}: a spare if one is ready, else made now. */
    public Path take(Path parent) throws IOException {
        Path spare = perParent == 0 ? null : ready.computeIfAbsent(parent, p -> new ConcurrentLinkedQueue<>()).poll();
        refill();
        return spare != null ? spare : make(parent);
    }

    /**
     * A fresh group under the cgroup2 {@code parent} that can be emptied at once by {@code cgroup.kill}, if this
     * supervisor may make one there (known after the first try; the answer does not change while it runs).
     */
    public Optional<Path> takeKillable(Path parent) {
        Boolean can = killable.get(parent);
        if (Boolean.FALSE.equals(can)) {
            return Optional.empty();
        }
        if (can == null && (!Files.isWritable(parent) || !Files.exists(parent.resolve("cgroup.procs")))) {
            killable.put(parent, false);
            return Optional.empty();
        }
        try {
            Path d = take(parent);
            if (can == null) {
                killable.put(parent, Files.exists(d.resolve("cgroup.kill")));
                if (!killable.get(parent)) { // no cgroup.kill (Linux < 5.14): no teardown groups, no spares here
                    Queue<Path> q = ready.remove(parent);
                    for (Path p = q == null ? null : q.poll(); p != null; p = q.poll()) {
                        Files.deleteIfExists(p);
                    }
                    Files.deleteIfExists(d);
                    return Optional.empty();
                }
            }
            return Optional.of(d);
        } catch (IOException e) {
            return Optional.empty(); // no teardown group: the launcher's own teardown still applies
        }
    }

    /** How many spares wait under {@code parent} (tests). */
    public int ready(Path parent) {
        Queue<Path> q = ready.get(parent);
        return q == null ? 0 : q.size();
    }

    static Path make(Path parent) throws IOException {
        // Named after this supervisor, so a successor can tell a dead owner's group from a live one's.
        return Files.createDirectory(parent.resolve("aasm-" + Owner.self() + "-" + UUID.randomUUID()));
    }

    /**
     * Asks for the missing spares: one task tops up every hierarchy (a task per group cost the background thread
     * more in wake-ups than the groups themselves; docs/benchmarks.md). At most one is queued at a time, and only it
     * adds spares, so they never exceed {@code perParent} per hierarchy (the soak counts groups).
     */
    private void refill() {
        if (perParent == 0 || closed || !queued.compareAndSet(false, true)) {
            return;
        }
        maker.execute(this::topUp);
    }

    private synchronized void topUp() {
        queued.set(false); // a take from now on asks again
        for (Map.Entry<Path, Queue<Path>> e : ready.entrySet()) {
            try {
                while (!closed && e.getValue().size() < perParent) {
                    e.getValue().add(make(e.getKey()));
                }
            } catch (IOException ex) {
                // no spare this time: the next launch makes its own group
            }
        }
        if (closed) {
            removeAll(); // a spare made while closing is not left behind
        }
    }

    /** Removes every spare never used; later takes make their groups at once. */
    @Override
    public void close() {
        closed = true;
        removeAll();
    }

    private void removeAll() {
        List<Path> left = new ArrayList<>();
        ready.values().forEach(q -> {
            for (Path p = q.poll(); p != null; p = q.poll()) {
                left.add(p);
            }
        });
        for (Path p : left) {
            try {
                Files.deleteIfExists(p); // never joined: empty, so this succeeds
            } catch (IOException e) {
                // Leftovers reclaims it once this supervisor is gone
            }
        }
    }
}
