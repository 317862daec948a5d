package io.aasm.backend.sandlock.internal.supervise;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Sandlock 0.8.6 keeps a directory per sandbox, {@code /dev/shm/sandlock-<uid>/<name>/} (a pid file and
 * its control socket), and removes it only when it exits by itself: a sandlock killed with SIGKILL —
 * which aasm's teardown does — leaves it behind, and a later sandlock whose auto-generated name
 * ({@code sandbox-<pid>-1}) meets it after pid reuse refuses to start. So every launch gets its own
 * name ({@code aasm-<launch id>}); the guard removes that directory after the tree is gone, and the
 * next start removes the ones whose owner was killed with its guard.
 */
public final class SandlockState {
    static final String PREFIX = "aasm-";

    private final Path root;
    private final LaunchIds ids;

    /** {@code shmRoot} is /dev/shm (configurable); the directory is sandlock's, per uid. */
    public SandlockState(Path shmRoot, LaunchIds ids) {
        this.root = shmRoot.resolve("sandlock-" + uid());
        this.ids = ids;
    }

    /** A sandbox name for a new launch, and the id it carries (shared with its cgroup). */
    public Optional<String> newName() {
        return ids.next().map(id -> PREFIX + id);
    }

    /**
     * Sandlock's per-user state folder, created (0700) when it does not exist yet: a launch's read-only view
     * binds it writable, so it must be there before sandlock starts.
     */
    public Path ensureRoot() {
        try {
            if (!Files.isDirectory(root)) {
                Files.createDirectories(root, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
            }
        } catch (IOException e) {
            // sandlock makes it itself where it can; the guard's bind then reports what failed
        }
        return root;
    }

    public Path dirOf(String name) {
        return root.resolve(name);
    }

    /** Removes the directories of launches whose owner is gone. Returns how many were removed. */
    public int reclaim() {
        int removed = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root, PREFIX + "*")) {
            for (Path dir : ds) {
                if (ids.ownerGone(dir.getFileName().toString(), PREFIX)) {
                    removed += remove(dir) ? 1 : 0;
                }
            }
        } catch (IOException e) {
            // No state root yet (no sandlock ran as this user), or unreadable: nothing to reclaim.
        }
        return removed;
    }

    /** The directory holds files only (pid, control.sock): remove them, then the directory. */
    static boolean remove(Path dir) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path f : ds) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static long uid() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
        } catch (IOException | UnsupportedOperationException e) {
            return -1; // unknown: no directory will match, so nothing of another user's is ever touched
        }
    }
}
