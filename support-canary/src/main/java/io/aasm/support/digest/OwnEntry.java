package io.aasm.support.digest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * One remembered answer in a backend's own state folder (a digest, a tool's answer, a self-check's verdict): the
 * rule every such cache follows, in one place, because a cache entry decides what is not checked again.
 *
 * <ul>
 *   <li>Read only from a regular file, never through a symlink, owned by this process's uid and writable by
 *       nobody else: an entry another user planted, or one they could change, is not an answer.</li>
 *   <li>Written to a private temporary file ({@code rw-------}) in the same folder and renamed over the entry, so
 *       a reader sees the old entry or the new one, never a part.</li>
 *   <li>Keyed, when the answer holds for one boot only, on the boot id, the kernel release and the uid as well as
 *       on what the caller names ({@link #bootKey}).</li>
 * </ul>
 * The folder itself is a protected path of every launch (no confined program may write it); this class cannot
 * check that, its callers' folders are.
 */
public final class OwnEntry {
    private OwnEntry() {
    }

    /** The entry's text when it is {@linkplain #trusted trusted} and valid UTF-8; empty otherwise. */
    public static Optional<String> read(Path entry) {
        try {
            if (!Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) || !trusted(entry)) {
                return Optional.empty();
            }
            // O_NOFOLLOW: a symlink put in the entry's place after the check is refused, not followed.
            try (InputStream in = Files.newInputStream(entry, LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(in.readAllBytes()))
                        .toString());
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Owned by this process's uid, and neither its group nor others may write it. */
    public static boolean trusted(Path entry) throws IOException {
        // no lambda or stream here: on a cold path their first call costs more than the check (docs/benchmarks.md)
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(entry, LinkOption.NOFOLLOW_LINKS);
        Object owner = Files.getAttribute(entry, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        return owner.equals(uid()) && !perms.contains(PosixFilePermission.GROUP_WRITE)
                && !perms.contains(PosixFilePermission.OTHERS_WRITE);
    }

    /**
     * Writes {@code text} as {@code entry} (in {@code folder}, created if absent) through a private temporary file
     * named {@code prefix…}; false when it could not be written, which only means the answer is asked again.
     */
    public static boolean write(Path folder, Path entry, String prefix, String text) {
        try {
            Files.createDirectories(folder);
            Path tmp = Files.createTempFile(folder, prefix, ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                Files.move(tmp, entry, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return true;
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A key for an answer that holds for this boot of this kernel and this uid: the first 16 bytes, in hex, of the
     * SHA-256 of {@code format}, the boot id, the kernel release, the uid and {@code parts}, each written with its
     * length first, so that no two lists of parts (a path may hold any character) give the same text.
     * An unreadable boot id or release reads as "unknown", the same for every call: such a host gets one key per
     * format and parts, which is why callers also put the binary's digest (or the like) in {@code parts}.
     */
    public static String bootKey(Path procRoot, String format, String... parts) {
        StringBuilder all = new StringBuilder();
        field(all, format);
        field(all, firstLine(procRoot.resolve("sys/kernel/random/boot_id")));
        field(all, firstLine(procRoot.resolve("sys/kernel/osrelease")));
        field(all, String.valueOf(uid()));
        for (String part : parts) {
            field(all, part);
        }
        return HexFormat.of().formatHex(sha256(all.toString().getBytes(StandardCharsets.UTF_8)), 0, 16);
    }

    /** This process's uid as {@code unix:uid} gives it (an Integer), or -1 when {@code /proc} cannot say. */
    static Object uid() {
        try {
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void field(StringBuilder all, String value) {
        all.append(value.length()).append(':').append(value).append('|');
    }

    private static String firstLine(Path p) {
        try {
            return Files.readString(p).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
