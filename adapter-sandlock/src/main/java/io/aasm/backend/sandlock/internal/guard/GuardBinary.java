package io.aasm.backend.sandlock.internal.guard;

import io.aasm.support.digest.DigestCache;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * The guard executable, extracted from this bundle to {@code <root>/<sha256>/aasm-sandlock-guard}
 * (directory 0700, file 0700) and checked against the digest the build recorded next to it. The
 * extracted file's digest is checked against it again before every start ({@link #verified()}), so a copy
 * changed on disk is replaced instead of run. Where a {@link DigestCache} is given, that digest is the one
 * remembered for the file's identity (device, inode, size, mtime, ctime: any write changes the ctime), so an
 * unchanged copy is not read and hashed again on every start; a changed one is hashed, fails and is replaced.
 */
public final class GuardBinary {
    static final String NAME = "aasm-sandlock-guard";

    private final Path root;
    private final String expected;
    private final Optional<DigestCache> digests;

    private GuardBinary(Path root, String expected, Optional<DigestCache> digests) {
        this.root = root;
        this.expected = expected;
        this.digests = digests;
    }

    /** The embedded guard for this JVM's architecture; throws when the bundle carries none. Hashed at every start. */
    public static GuardBinary embedded(Path cacheRoot) throws IOException {
        return embedded(cacheRoot, Optional.empty());
    }

    /** As above; {@code digests}: where the extracted copy's digest is remembered under its file identity. */
    public static GuardBinary embedded(Path cacheRoot, Optional<DigestCache> digests) throws IOException {
        String text = new String(resource(platformDir() + "/" + NAME + ".sha256"), StandardCharsets.US_ASCII).trim();
        String hex = text.split("\\s+")[0].toLowerCase(Locale.ROOT);
        if (!hex.matches("[0-9a-f]{64}")) {
            throw new IOException("embedded guard checksum file is malformed: " + text);
        }
        return new GuardBinary(cacheRoot, hex, digests);
    }

    public String sha256() {
        return expected;
    }

    /** The path of an extracted copy whose bytes match the embedded digest right now. */
    public synchronized Path verified() throws IOException {
        Path dir = root.resolve(expected);
        Path target = dir.resolve(NAME);
        if (Files.isRegularFile(target) && expected.equals(digestOf(target))) {
            return target;
        }
        byte[] bin = resource(platformDir() + "/" + NAME);
        if (!expected.equals(sha256(bin))) {
            throw new IOException("embedded guard does not match its checksum " + expected);
        }
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path tmp = Files.createTempFile(dir, NAME, ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.write(tmp, bin);
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
            // Atomic rename: concurrent extractors race harmlessly, each writing identical bytes.
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        if (!expected.equals(sha256(Files.readAllBytes(target)))) {
            throw new IOException("extracted guard does not match its checksum: " + target);
        }
        return target;
    }

    /** The extracted copy's digest now: remembered for its identity, or read and hashed. */
    private String digestOf(Path target) throws IOException {
        if (digests.isPresent()) {
            return digests.get().sha256(target).orElse("");
        }
        return sha256(Files.readAllBytes(target));
    }

    static String platformDir() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String norm = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return "native/linux-" + norm;
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = GuardBinary.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no " + name + " in this bundle (unsupported platform?)");
            }
            return in.readAllBytes();
        }
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
