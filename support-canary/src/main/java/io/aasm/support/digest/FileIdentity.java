package io.aasm.support.digest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What stat(2) says identifies a file's content without reading it: device, inode, size, mtime and ctime.
 *
 * <p>Why these five: a binary swapped for another (rename, copy over, a new file on the path) has another inode
 * or device; an in-place write changes the size or, at the same size, mtime and ctime. mtime can be set back from
 * user space ({@code touch -d}, {@code utimensat}), ctime cannot: every write, chmod, chown, rename or time change
 * sets it to the current time, and only a change of the system clock (root) could make it repeat.
 */
public record FileIdentity(long dev, long ino, long size, long mtimeNanos, long ctimeNanos) {

    /** The identity of the file {@code p} names (symlinks followed), or empty when it cannot be read. */
    public static Optional<FileIdentity> of(Path p) {
        try {
            Map<String, Object> a = Files.readAttributes(p, "unix:dev,ino,size,lastModifiedTime,ctime");
            return Optional.of(new FileIdentity((Long) a.get("dev"), (Long) a.get("ino"), (Long) a.get("size"),
                    nanos(a.get("lastModifiedTime")), nanos(a.get("ctime"))));
        } catch (IOException | UnsupportedOperationException | ClassCastException e) {
            return Optional.empty();
        }
    }

    /**
     * Written out, not generated: a record's own {@code equals} is bootstrapped through {@code invokedynamic} and
     * method handles on its first call, which in a cold JVM cost more than the hash this class lets it skip.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof FileIdentity f && dev == f.dev && ino == f.ino && size == f.size
                && mtimeNanos == f.mtimeNanos && ctimeNanos == f.ctimeNanos;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(ino) * 31 + Long.hashCode(ctimeNanos);
    }

    @Override
    public String toString() {
        return "FileIdentity[dev=" + dev + ", ino=" + ino + ", size=" + size + ", mtimeNanos=" + mtimeNanos
                + ", ctimeNanos=" + ctimeNanos + "]";
    }

    private static long nanos(Object t) {
        return ((FileTime) t).to(TimeUnit.NANOSECONDS);
    }

    /** The space-separated form stored in the digest cache. */
    String text() {
        return dev + " " + ino + " " + size + " " + mtimeNanos + " " + ctimeNanos;
    }

    static Optional<FileIdentity> parse(String[] f, int from) {
        try {
            return Optional.of(new FileIdentity(Long.parseLong(f[from]), Long.parseLong(f[from + 1]),
                    Long.parseLong(f[from + 2]), Long.parseLong(f[from + 3]), Long.parseLong(f[from + 4])));
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }
}
