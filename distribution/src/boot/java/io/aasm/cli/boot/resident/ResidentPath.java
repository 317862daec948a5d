package io.aasm.cli.boot.resident;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Where the resident kernel's socket lives: {@code $XDG_RUNTIME_DIR/aasm.sock}, else
 * {@code /run/user/<uid>/aasm.sock} when that directory is the user's, else {@code run/aasm.sock} in
 * aasm's cache ({@code $XDG_CACHE_HOME/aasm/run}, else {@code $HOME/.cache/aasm/run}), a 0700 directory
 * the user owns. Never under /tmp: the runtime directory is one of aasm's protected paths, and a backend
 * that cannot keep it read-only beneath a write grant (sandlock) would then refuse every write grant of
 * /tmp. The sh front ({@code bin/aasm}) and the C client (src/main/c/aasm-client.c) apply the same rule.
 */
public final class ResidentPath {
    private ResidentPath() {
    }

    public static int uid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot determine the user id from /proc/self: " + e.getMessage(), e);
        }
    }

    public static Path socket() {
        String xdg = System.getenv("XDG_RUNTIME_DIR");
        if (xdg != null && xdg.startsWith("/")) {
            return Path.of(xdg, "aasm.sock");
        }
        int uid = uid();
        Path run = Path.of("/run/user/" + uid);
        try {
            if (Files.isDirectory(run) && ((Integer) Files.getAttribute(run, "unix:uid")) == uid) {
                return run.resolve("aasm.sock");
            }
        } catch (IOException e) {
            // fall through to the cache
        }
        return fallbackDir().resolve("aasm.sock");
    }

    /** {@code $XDG_CACHE_HOME/aasm/run}, else {@code $HOME/.cache/aasm/run} (else the password database's home). */
    static Path fallbackDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && xdg.startsWith("/")) {
            return Path.of(xdg, "aasm", "run");
        }
        String home = System.getenv("HOME");
        return Path.of(home != null && home.startsWith("/") ? home : System.getProperty("user.home"), ".cache", "aasm",
                "run");
    }

    /** Creates the socket's directory when it is ours to create, and refuses one another user could enter. */
    public static void prepareDirectory(Path socket) throws IOException {
        Path dir = socket.getParent();
        if (!dir.equals(fallbackDir())) {
            Files.createDirectories(dir);
            return;
        }
        Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rwx------");
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir.getParent(), PosixFilePermissions.asFileAttribute(owner));
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(owner));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // created concurrently: checked below
            }
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                || ((Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS)) != uid()
                || !Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).equals(owner)) {
            throw new IOException(dir + " is not a directory owned by uid " + uid() + " with mode 0700;"
                    + " remove it or set XDG_RUNTIME_DIR");
        }
    }
}
