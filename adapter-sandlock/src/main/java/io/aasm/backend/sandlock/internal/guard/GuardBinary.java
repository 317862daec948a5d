package io.aasm.backend.sandlock.internal.guard;

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

/**
 * The guard executable, extracted from this bundle to {@code <root>/<sha256>/aasm-sandlock-guard}
 * (directory 0700, file 0700) and checked against the digest the build recorded next to it. The
 * extracted file is hashed again before every start ({@link #verified()}), so a copy changed on
 * disk is replaced instead of run.
 */
public final class GuardBinary {
    static final String NAME = "aasm-sandlock-guard";

    private final Path root;
    private final String expected;

    private GuardBinary(Path root, String expected) {
        this.root = root;
        this.expected = expected;
    }

    /** The embedded guard for this JVM's architecture; throws when the bundle carries none. */
    public static GuardBinary embedded(Path cacheRoot) throws IOException {
        String text = new String(resource(platformDir() + "/" + NAME + ".sha256"), StandardCharsets.US_ASCII).trim();
        String hex = text.split("\\s+")[0].toLowerCase(Locale.ROOT);
        if (!hex.matches("[0-9a-f]{64}")) {
            throw new IOException("embedded guard checksum file is malformed: " + text);
        }
        return new GuardBinary(cacheRoot, hex);
    }

    public String sha256() {
        return expected;
    }

    /** The path of an extracted copy whose bytes match the embedded digest right now. */
    public synchronized Path verified() throws IOException {
        Path dir = root.resolve(expected);
        Path target = dir.resolve(NAME);
        if (Files.isRegularFile(target) && expected.equals(sha256(Files.readAllBytes(target)))) {
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
