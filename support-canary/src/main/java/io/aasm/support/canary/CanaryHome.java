package io.aasm.support.canary;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The canary folder shared by every launch of this supervisor process: made (or checked) once per canary
 * root, then reused, so a launch costs the supervisor no folder, no file and no walk to remove them.
 *
 * <p>Why sharing is as strong as a folder per launch (each backend argues its own case in its docs): the
 * root must lie beneath the backend's own state, which no launch may be granted write to, so no program
 * can plant, replace or link anything in it; the read canary's denial is the kernel's answer for a path
 * outside every grant, whatever the file's name; what binds a record to its launch is the nonce written in
 * the record, never the file's name. The file is checked (a regular file, not a link) on every call, so a
 * folder removed under a long-running supervisor is made again rather than answering ENOENT for it.
 */
public final class CanaryHome {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final Map<Path, Path> READY = new ConcurrentHashMap<>();

    private CanaryHome() {
    }

    /** The shared folder beneath {@code root}, with its read canary file in it. */
    public static Path folder(Path root) throws IOException {
        Path ready = READY.get(root);
        // one stat per launch: a folder removed under a long-running supervisor (a cache cleaned) is made again
        if (ready != null && Files.isRegularFile(readFile(ready), LinkOption.NOFOLLOW_LINKS)) {
            return ready;
        }
        synchronized (READY) {
            ready = READY.get(root);
            if (ready == null || !Files.isRegularFile(readFile(ready), LinkOption.NOFOLLOW_LINKS)) {
                ready = make(root);
                READY.put(root, ready);
            }
            return ready;
        }
    }

    /** The file the read canary opens: shared, its content never read by anyone. */
    public static Path readFile(Path folder) {
        return folder.resolve("read");
    }

    private static Path make(Path root) throws IOException {
        Files.createDirectories(root, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Path dir = root.resolve("shared");
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException e) {
            // made by an earlier supervisor: checked below before it is trusted
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                || !Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).equals(OWNER_ONLY)
                || !Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).equals(Files.getOwner(root))) {
            throw new IOException(dir + " is not a folder of this user's with mode 0700; remove it");
        }
        Path read = readFile(dir);
        try {
            Files.writeString(read, "aasm canary\n", StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isRegularFile(read, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(read + " is not a regular file; remove it", e);
            }
        }
        return dir;
    }
}
