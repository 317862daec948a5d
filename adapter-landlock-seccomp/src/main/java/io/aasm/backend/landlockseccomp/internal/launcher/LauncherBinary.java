package io.aasm.backend.landlockseccomp.internal.launcher;

import io.aasm.support.digest.DigestCache;
import io.aasm.support.digest.FileIdentity;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The launcher executable. In production it is executed from a sealed memory file of this JVM
 * ({@link #load}): verified once against the checksum the build embedded next to it, then sealed
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

    /**
     * The launcher every launch executes: a configured file (an operator's own build) or the embedded one,
     * either way copied once into sealed memory, so no file a launch could change is what runs next.
     * {@code digests} remembers the launcher's SHA-256 under the identity of the file it is read from (the
     * configured file, or the bundle's jar), in the backend's protected state: while that file is unchanged an
     * activation does not hash the 0.8 MB again (issue 18: it was the largest single item of a cold walk). The
     * embedded launcher is still compared with its embedded checksum, from the cache or from a fresh hash.
     */
    public static LauncherBinary load(Optional<Path> configured, Optional<DigestCache> digests) throws IOException {
        if (configured.isPresent()) {
            Path real = configured.get().toRealPath();
            Optional<FileIdentity> before = FileIdentity.of(real);
            byte[] bin = Files.readAllBytes(real);
            Optional<FileIdentity> after = FileIdentity.of(real);
            return seal(bin, digestOf(bin, Optional.of(real.toString()), before, after, digests, Optional.empty()));
        }
        String name = platformDir() + "/aasm-launch";
        String expected = embeddedChecksum();
        // no lambdas on this path: in a cold JVM each one's first call costs about what the hash does
        Optional<LauncherSource> source = digests.isPresent() ? LauncherSource.of(name) : Optional.empty();
        Optional<FileIdentity> before = source.isPresent() ? FileIdentity.of(source.get().file()) : Optional.empty();
        byte[] bin = resource(name);
        Optional<FileIdentity> after = source.isPresent() ? FileIdentity.of(source.get().file()) : Optional.empty();
        Optional<String> key = source.isPresent() ? Optional.of(source.get().key()) : Optional.empty();
        String actual = digestOf(bin, key, before, after, digests, Optional.of(expected));
        if (!expected.equals(actual)) {
            throw new IOException("launcher does not match its checksum: expected " + expected + ", got " + actual);
        }
        return seal(bin, expected);
    }

    /**
     * The digest of {@code bin}, read from the file {@code key} names while its identity was {@code before} and then
     * {@code after}: the remembered one when the two are equal and an entry was stored at that identity (and, when
     * a digest is {@code expected}, it is that one: a jar the framework holds open may be an older file than the one
     * now at its path), else a fresh hash, remembered when the file did not change while it was read.
     */
    private static String digestOf(byte[] bin, Optional<String> key, Optional<FileIdentity> before,
            Optional<FileIdentity> after, Optional<DigestCache> digests, Optional<String> expected) {
        if (digests.isPresent() && key.isPresent() && before.isPresent() && before.equals(after)) {
            Optional<String> known = digests.get().remembered(key.get(), before.get());
            if (known.isPresent() && (expected.isEmpty() || known.equals(expected))) {
                return known.get();
            }
        }
        String digest = sha256(bin);
        if (digests.isPresent() && key.isPresent() && before.isPresent()) {
            digests.get().remember(key.get(), before.get(), after, digest);
        }
        return digest;
    }

    /**
     * {@code bin}, whose digest is {@code digest} (verified by the caller), in a sealed memory file; its path goes
     * through this JVM's /proc entry. The memory file is read back and compared byte for byte with {@code bin}: as
     * strong as hashing it again, for a fraction of the work.
     */
    private static LauncherBinary seal(byte[] bin, String digest) throws IOException {
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
        if (!java.util.Arrays.equals(bin, Files.readAllBytes(path))) {
            throw new IOException("the launcher's sealed memory file does not read back as " + digest);
        }
        return new LauncherBinary(path, digest);
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
        return DigestCache.sha256(data);
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
