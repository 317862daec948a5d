package io.aasm.cli.boot;

import io.aasm.cli.boot.resident.ResidentPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * aasm's cache directory ({@code $XDG_CACHE_HOME/aasm}, else {@code ~/.cache/aasm}): the bundle caches,
 * the AppCDS archive, the extracted launcher, the probe results and this JVM's private temporary
 * directory all live there, and the JVM loads or executes much of it. So it must be the user's own and
 * closed to everyone else (0700); one that is not, or cannot be made so, stops aasm before anything
 * starts rather than falling back to a shared place such as {@code /tmp}.
 */
final class CacheDir {
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private CacheDir() {
    }

    static Path root() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && xdg.startsWith("/")) {
            return Paths.get(xdg, "aasm");
        }
        return Paths.get(System.getProperty("user.home"), ".cache", "aasm");
    }

    /** The cache root, created if needed, checked and made 0700; its real path. */
    static Path prepare() {
        Path root = root();
        try {
            Files.createDirectories(root);
            Path real = root.toRealPath();
            ownerOnly(real, false);
            return real;
        } catch (IOException | UnsupportedOperationException e) {
            throw new CannotStart("cannot use the cache directory " + root + ": " + e + "; set XDG_CACHE_HOME to a"
                    + " directory of your own; nothing was started");
        }
    }

    /**
     * Checks that {@code dir} is a directory (not a symlink when {@code noFollow}) owned by this user,
     * and makes it 0700 when it is not yet.
     */
    static void ownerOnly(Path dir, boolean noFollow) throws IOException {
        LinkOption[] how = noFollow ? new LinkOption[] {LinkOption.NOFOLLOW_LINKS} : new LinkOption[0];
        if (!Files.isDirectory(dir, how)) {
            throw new IOException(dir + " is not a directory");
        }
        int owner = (Integer) Files.getAttribute(dir, "unix:uid", how);
        if (owner != ResidentPath.uid()) {
            throw new IOException(dir + " belongs to uid " + owner + ", not to uid " + ResidentPath.uid());
        }
        if (!Files.getPosixFilePermissions(dir, how).equals(OWNER_ONLY)) {
            Files.setPosixFilePermissions(dir, OWNER_ONLY);
        }
    }
}
