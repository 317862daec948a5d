package io.aasm.backend.sandlock.internal.discovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * The SHA-256 of the sandlock binary, remembered in this backend's private state under the binary's
 * {@link FileIdentity}, so a cold walk does not read and hash 10 MB when the file has not changed since it was
 * last hashed. Any change of device, inode, size, mtime or ctime means a fresh hash.
 *
 * <p>Why this is as strong as hashing every time (docs/sandlock.md, "Provenance"): the entry lives in the
 * backend's own state directory, which no launch may write (a protected path of every backend); an entry is read
 * only from a regular file of this process's uid that nobody else may write; and an entry is stored only when the
 * file's identity was the same before and after the hash and its ctime lies at least {@code settle} in the past,
 * so a write in the same timestamp tick as the hash (the "racy" case) cannot leave a stale entry that still
 * matches. The digest found is compared with the pinned digests on every walk, as before.
 */
public final class DigestCache {
    static final String FORMAT = "aasm.sandlock.digest/1";
    private static final Set<PosixFilePermission> OTHERS_WRITE =
            Set.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    private final Path dir;
    private final Duration settle;

    /** {@code dir}: the backend's private state; {@code settle}: how old a ctime must be before it is trusted. */
    public DigestCache(Path dir, Duration settle) {
        this.dir = dir;
        this.settle = settle;
    }

    public DigestCache(Path dir) {
        this(dir, Duration.ofSeconds(2));
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
        Path entry = dir.resolve("sandlock-digest-" + shortHash(real.toString()) + ".txt");
        if (before.isPresent()) {
            Optional<String> hit = lookup(entry, real, before.get());
            if (hit.isPresent()) {
                return hit;
            }
        }
        Optional<String> digest = Discovery.sha256(real);
        Optional<FileIdentity> after = FileIdentity.of(real);
        if (digest.isPresent() && before.isPresent() && before.equals(after) && settled(before.get())) {
            store(entry, real, before.get(), digest.get());
        }
        return digest;
    }

    private boolean settled(FileIdentity id) {
        long now = System.currentTimeMillis() * 1_000_000L;
        return now - id.ctimeNanos() >= settle.toNanos() && now - id.mtimeNanos() >= settle.toNanos();
    }

    private static Optional<String> lookup(Path entry, Path real, FileIdentity now) {
        try {
            if (!Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS) || !trusted(entry)) {
                return Optional.empty();
            }
            String[] f = Files.readString(entry, StandardCharsets.UTF_8).strip().split(" ", 8);
            if (f.length != 8 || !FORMAT.equals(f[0]) || !f[7].equals(real.toString())
                    || !FileIdentity.parse(f, 1).equals(Optional.of(now)) || !f[6].matches("[0-9a-f]{64}")) {
                return Optional.empty();
            }
            return Optional.of(f[6]);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Owned by this process's uid and writable by nobody else: an entry another user planted is ignored. */
    private static boolean trusted(Path entry) throws IOException {
        Object self = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        return self.equals(Files.getAttribute(entry, "unix:uid", LinkOption.NOFOLLOW_LINKS))
                && Files.getPosixFilePermissions(entry, LinkOption.NOFOLLOW_LINKS).stream()
                .noneMatch(OTHERS_WRITE::contains);
    }

    private void store(Path entry, Path real, FileIdentity id, String digest) {
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "sandlock-digest", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(tmp, FORMAT + " " + id.text() + " " + digest + " " + real + "\n",
                        StandardCharsets.UTF_8);
                Files.move(tmp, entry, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            // An unwritable cache only means the next walk hashes again.
        }
    }

    private static String shortHash(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(StandardCharsets.UTF_8)), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
