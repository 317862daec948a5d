package io.aasm.cli.internal;

import com.sun.jna.Native;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A directory held open by descriptor, so that files are created and replaced in the directory that
 * was meant when it was opened, whatever happens to its path afterwards (a launched program may swap
 * the directory for a symlink, or plant a symlink at the file's name). A file is written to a fresh
 * temporary name created exclusively without following links, flushed to disk, then renamed over the
 * final name: the rename replaces whatever is there (a symlink included) and never follows it, and a
 * write that fails leaves no partial file behind. A name that holds a device, FIFO or socket is never
 * replaced: a rename would swap a file in for it (as root, {@code --report-file /dev/null} once turned the
 * host's /dev/null into a regular file).
 */
final class PinnedDirectory implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final Path path;
    private int fd;

    private PinnedDirectory(Path path, int fd) {
        this.path = path;
        this.fd = fd;
    }

    /** Opens {@code dir} now (following the symlinks its path has now: that is the directory the user named). */
    static PinnedDirectory open(Path dir) throws IOException {
        int fd = FileCalls.C.open(dir.toString(), FileCalls.O_PATH | FileCalls.O_DIRECTORY | FileCalls.O_CLOEXEC, 0);
        if (fd < 0) {
            throw new IOException(dir + ": " + lastError());
        }
        return new PinnedDirectory(dir, fd);
    }

    Path path() {
        return path;
    }

    /**
     * Throws when {@code name} in this directory holds something a replace must not swap a file in for: a device,
     * FIFO or socket. Seen through the pinned descriptor, a symlink at the name not followed (a symlink is
     * replaced, its target untouched). Nothing there or a regular file is fine; a folder makes the rename fail.
     */
    void requireReplaceable(String name) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(Path.of("/proc/self/fd", Integer.toString(fd), name), BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return;
        }
        if (a.isOther()) {
            throw new IOException(path.resolve(name) + " is a device, FIFO or socket, not a file aasm may replace;"
                    + " name a regular file, or - for stderr");
        }
    }

    /** Replaces {@code name} in this directory with exactly {@code bytes}, or changes nothing and throws. */
    void replace(String name, byte[] bytes) throws IOException {
        requireReplaceable(name);
        String tmp = ".aasm-" + HexFormat.of().formatHex(random()) + ".tmp";
        int out = FileCalls.C.openat(fd, tmp, FileCalls.O_WRONLY | FileCalls.O_CREAT | FileCalls.O_EXCL
                | FileCalls.O_NOFOLLOW | FileCalls.O_CLOEXEC, 0666);
        if (out < 0) {
            throw new IOException("cannot create a file in " + path + ": " + lastError());
        }
        boolean done = false;
        try {
            writeAll(out, bytes);
            // EINVAL: a filesystem without synchronisation (the bytes are written; there is nothing to flush)
            if (FileCalls.C.fsync(out) != 0 && Native.getLastError() != FileCalls.EINVAL) {
                throw new IOException("cannot flush " + path.resolve(name) + " to disk: " + lastError());
            }
            int closed = FileCalls.C.close(out);
            out = -1;
            if (closed != 0) {
                throw new IOException("cannot close " + path.resolve(name) + ": " + lastError());
            }
            if (FileCalls.C.renameat(fd, tmp, fd, name) != 0) {
                throw new IOException("cannot replace " + path.resolve(name) + ": " + lastError());
            }
            done = true;
        } finally {
            if (out >= 0) {
                FileCalls.C.close(out);
            }
            if (!done) {
                FileCalls.C.unlinkat(fd, tmp, 0);
            }
        }
    }

    private void writeAll(int out, byte[] bytes) throws IOException {
        int off = 0;
        while (off < bytes.length) {
            byte[] rest = off == 0 ? bytes : Arrays.copyOfRange(bytes, off, bytes.length);
            long n = FileCalls.C.write(out, rest, rest.length);
            if (n < 0 && Native.getLastError() == FileCalls.EINTR) {
                continue;
            }
            if (n <= 0) {
                throw new IOException("wrote " + off + " of " + bytes.length + " bytes to " + path + ": "
                        + (n == 0 ? "no progress" : lastError()));
            }
            off += (int) n;
        }
    }

    private static byte[] random() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return b;
    }

    private static String lastError() {
        int errno = Native.getLastError();
        return FileCalls.C.strerror(errno) + " (errno " + errno + ")";
    }

    @Override
    public void close() {
        if (fd >= 0) {
            FileCalls.C.close(fd);
            fd = -1;
        }
    }
}
