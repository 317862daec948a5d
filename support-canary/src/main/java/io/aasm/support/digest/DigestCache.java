package io.aasm.support.digest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The SHA-256 of a file's content (or of one part of it, e.g. an entry of a jar), remembered in a backend's private
 * state under the file's {@link FileIdentity}, so a cold activation does not read and hash a binary that has not
 * changed since it was last hashed. Any change of device, inode, size, mtime or ctime means a fresh hash.
 *
 * <p>Why this is as strong as hashing every time (docs/sandlock.md, "Provenance"): the entry lives in the
 * backend's own state directory, which no launch may write (a protected path of every backend); an entry is read
 * only from a regular file of this process's uid that nobody else may write ({@link OwnEntry}); and an entry is
 * stored only when the file's identity was the same before and after the hash and its ctime lies at least
 * {@code settle} in the past, so a write in the same timestamp tick as the hash (the "racy" case) cannot leave a
 * stale entry that still matches. Callers still compare the digest found with what they expect (pins, an embedded checksum) every time.
 */
public final class DigestCache {
    private final Path dir;
    private final String name;
    private final String format;
    private final Duration settle;

    /**
     * {@code dir}: the backend's private state; {@code name}: what is hashed (entries are {@code NAME-digest-*.txt});
     * {@code settle}: how old a ctime must be before it is trusted.
     */
    public DigestCache(Path dir, String name, Duration settle) {
        if (!name.matches("[a-z0-9-]+")) {
            throw new IllegalArgumentException("a digest cache's name is lower-case letters, digits and '-': " + name);
        }
        this.dir = dir;
        this.name = name;
        this.format = "aasm." + name + ".digest/1";
        this.settle = settle;
    }

    public DigestCache(Path dir, String name) {
        this(dir, name, Duration.ofSeconds(2));
    }

    /** The digest of the file {@code p} names now: from the cache when its identity is unchanged, else hashed. */
    public Optional<String> sha256(Path p) {
        Path real;
        try {
            real = p.toRealPath();
        } catch (IOException e) {
            return Optional.empty();
        }
        Optional<FileIdentity> before = FileIdentity.of(real);
        if (before.isPresent()) {
            Optional<String> hit = remembered(real.toString(), before.get());
            if (hit.isPresent()) {
                return hit;
            }
        }
        Optional<String> digest = sha256File(real);
        if (digest.isPresent() && before.isPresent()) {
            remember(real.toString(), before.get(), FileIdentity.of(real), digest.get());
        }
        return digest;
    }

    /**
     * The digest stored for {@code key} (a real path, or a real path and a part of that file) while its file has the
     * identity {@code now}; empty when none is stored, the entry is not trusted, or it was taken at another identity.
     */
    public Optional<String> remembered(String key, FileIdentity now) {
        Optional<String> text = OwnEntry.read(entry(key));
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String[] f = text.get().strip().split(" ", 8);
        if (f.length != 8 || !format.equals(f[0]) || !f[7].equals(key)
                || !FileIdentity.parse(f, 1).equals(Optional.of(now)) || !f[6].matches("[0-9a-f]{64}")) {
            return Optional.empty();
        }
        return Optional.of(f[6]);
    }

    /**
     * Stores {@code digest} for {@code key}, taken from content read while the file's identity was {@code before}
     * and, after reading, {@code after}: only if the two are equal and settled (see the class comment).
     */
    public void remember(String key, FileIdentity before, Optional<FileIdentity> after, String digest) {
        if (!after.equals(Optional.of(before)) || !settled(before) || !digest.matches("[0-9a-f]{64}")
                || key.contains("\n")) {
            return;
        }
        // An unwritable cache only means the next activation hashes again.
        OwnEntry.write(dir, entry(key), name + "-digest",
                format + " " + before.text() + " " + digest + " " + key + "\n");
    }

    private boolean settled(FileIdentity id) {
        long now = System.currentTimeMillis() * 1_000_000L;
        return now - id.ctimeNanos() >= settle.toNanos() && now - id.mtimeNanos() >= settle.toNanos();
    }

    private Path entry(String key) {
        return dir.resolve(name + "-digest-" + HexFormat.of().formatHex(sha256().digest(
                key.getBytes(StandardCharsets.UTF_8)), 0, 8) + ".txt");
    }

    /** The SHA-256 of {@code data}, in lower-case hex. */
    public static String sha256(byte[] data) {
        return HexFormat.of().formatHex(sha256().digest(data));
    }

    /** The SHA-256 of the file {@code p}'s content, read now; empty when it cannot be read. */
    public static Optional<String> sha256File(Path p) {
        try (InputStream in = new DigestInputStream(Files.newInputStream(p), sha256())) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return Optional.of(HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
