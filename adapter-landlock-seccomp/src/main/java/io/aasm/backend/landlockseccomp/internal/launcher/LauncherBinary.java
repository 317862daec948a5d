package io.aasm.backend.landlockseccomp.internal.launcher;

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
import java.util.Objects;

/**
 * The launcher executable. In production it is executed from a sealed memory file of this JVM
 * ({@link #sealedInMemory()}): verified once against the checksum the build embedded next to it, then sealed
 * against every write, so nothing on disk that a confined program could reach is ever executed as the
 * launcher. {@link #extract(Path)} writes a file copy for tests that must run it as another user.
 */
public record LauncherBinary(Path path, String sha256) {
    public LauncherBinary {
        Objects.requireNonNull(path);
        Objects.requireNonNull(sha256);
    }

    /** The resource directory for this JVM's architecture, e.g. {@code native/linux-x86_64}. */
    public static String platformDir() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String norm = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> arch;
        };
        return "native/linux-" + norm;
    }

    /** {@code $XDG_CACHE_HOME/aasm/launcher}, else {@code ~/.cache/aasm/launcher}. */
    public static Path defaultCacheRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("aasm").resolve("launcher");
    }

    /** The checksum the build recorded for the embedded launcher, without extracting it. */
    public static String embeddedChecksum() throws IOException {
        byte[] sum = resource(platformDir() + "/aasm-launch.sha256");
        String text = new String(sum, StandardCharsets.US_ASCII).trim();
        String hex = text.split("\\s+")[0].toLowerCase(Locale.ROOT);
        if (!hex.matches("[0-9a-f]{64}")) {
            throw new IOException("embedded launcher checksum file is malformed: " + text);
        }
        return hex;
    }

    private static final int MFD_CLOEXEC = 1;
    private static final int MFD_ALLOW_SEALING = 2;
    private static final int MFD_EXEC = 0x10;
    private static final int F_ADD_SEALS = 1033;
    private static final int SEALS = 0x1 | 0x2 | 0x4 | 0x8; // seal, shrink, grow, write

    /** The embedded launcher, verified, in a sealed memory file; its path goes through this JVM's /proc entry. */
    /**
     * The launcher every launch executes: a configured file (an operator's own build) or the embedded one,
     * either way copied once into sealed memory, so no file a launch could change is what runs next.
     */
    public static LauncherBinary load(java.util.Optional<Path> configured) throws IOException {
        if (configured.isPresent()) {
            byte[] bin = Files.readAllBytes(configured.get());
            return sealedInMemory(bin, sha256(bin));
        }
        return sealedInMemory();
    }

    public static LauncherBinary sealedInMemory() throws IOException {
        return sealedInMemory(resource(platformDir() + "/aasm-launch"), embeddedChecksum());
    }

    /** A launcher read from {@code file} (an operator's choice), verified to be {@code expected}, then sealed. */
    public static LauncherBinary sealedInMemory(byte[] bin, String expected) throws IOException {
        String actual = sha256(bin);
        if (!expected.equals(actual)) {
            throw new IOException("launcher does not match its checksum: expected " + expected + ", got " + actual);
        }
        io.aasm.backend.landlockseccomp.internal.host.LibC c = io.aasm.backend.landlockseccomp.internal.host.LibC.INSTANCE;
        int fd = c.memfd_create("aasm-launch", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
        if (fd < 0) {
            fd = c.memfd_create("aasm-launch", MFD_CLOEXEC | MFD_ALLOW_SEALING); // before Linux 6.3: executable anyway
        }
        if (fd < 0) {
            throw new IOException("memfd_create failed; cannot hold the launcher in memory");
        }
        for (int off = 0; off < bin.length; ) {
            byte[] chunk = java.util.Arrays.copyOfRange(bin, off, bin.length);
            long n = c.write(fd, chunk, chunk.length);
            if (n <= 0) {
                c.close(fd);
                throw new IOException("writing the launcher to its memory file failed");
            }
            off += (int) n;
        }
        if (c.fcntl(fd, F_ADD_SEALS, SEALS) < 0) {
            c.close(fd);
            throw new IOException("sealing the launcher's memory file failed");
        }
        Path path = Path.of("/proc", Integer.toString(c.getpid()), "fd", Integer.toString(fd));
        if (!expected.equals(sha256(Files.readAllBytes(path)))) {
            throw new IOException("the launcher's sealed memory file does not read back as " + expected);
        }
        return new LauncherBinary(path, expected);
    }

    public static LauncherBinary extract(Path cacheRoot) throws IOException {
        String expected = embeddedChecksum();
        Path dir = cacheRoot.resolve(expected);
        Path target = dir.resolve("aasm-launch");
        if (Files.isRegularFile(target) && expected.equals(sha256(Files.readAllBytes(target)))) {
            return new LauncherBinary(target, expected);
        }
        byte[] bin = resource(platformDir() + "/aasm-launch");
        String actual = sha256(bin);
        if (!expected.equals(actual)) {
            throw new IOException("embedded launcher does not match its checksum: expected " + expected + ", got " + actual);
        }
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Path tmp = Files.createTempFile(dir, "aasm-launch", ".tmp",
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
            throw new IOException("extracted launcher does not match its checksum: " + target);
        }
        return new LauncherBinary(target, expected);
    }

    static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is mandatory in every JVM", e);
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = LauncherBinary.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no launcher resource " + name + " in this bundle (unsupported platform?)");
            }
            return in.readAllBytes();
        }
    }
}
