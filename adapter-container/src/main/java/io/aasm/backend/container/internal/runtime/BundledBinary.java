package io.aasm.backend.container.internal.runtime;

import io.aasm.backend.container.internal.lower.SyscallTable;
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

/**
 * A static binary this bundle carries ({@code native/linux-<arch>/<name>} and its {@code .sha256}): the
 * lifeline guard, the container's init and the transport relay. Extracted into the backend's state directory (0555, so a
 * program of any user can run the init bound into its container) and checked against its digest before
 * every use, so a file swapped there after extraction is never run.
 */
public final class BundledBinary {
    public static final String GUARD = "aasm-container-guard";
    public static final String INIT = "aasm-container-init";
    public static final String RELAY = "aasm-container-relay";

    private final Path path;
    private final String sha256;

    private BundledBinary(Path path, String sha256) {
        this.path = path;
        this.sha256 = sha256;
    }

    public static BundledBinary embedded(Path stateRoot, String name) throws IOException {
        String arch = SyscallTable.kernelArch(System.getProperty("os.arch")).orElseThrow(() -> new IOException(
                "no " + name + " for architecture " + System.getProperty("os.arch")));
        String base = "/native/linux-" + arch + "/" + name;
        String expected;
        byte[] bytes;
        try (InputStream sum = BundledBinary.class.getResourceAsStream(base + ".sha256");
             InputStream bin = BundledBinary.class.getResourceAsStream(base)) {
            if (sum == null || bin == null) {
                throw new IOException(base + " is missing from the bundle");
            }
            expected = new String(sum.readAllBytes(), StandardCharsets.US_ASCII).split("\\s+")[0];
            bytes = bin.readAllBytes();
        }
        if (!sha256(bytes).equals(expected)) {
            throw new IOException("the bundled " + name + " does not match its digest " + expected);
        }
        Path dir = stateRoot.resolve("bin").resolve(expected.substring(0, 16));
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(stateRoot.resolve("bin"), PosixFilePermissions.fromString("rwx------"));
        Path target = dir.resolve(name);
        if (!Files.isRegularFile(target) || !sha256(Files.readAllBytes(target)).equals(expected)) {
            Path tmp = Files.createTempFile(dir, name, ".tmp");
            Files.write(tmp, bytes);
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("r-xr-xr-x"));
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        return new BundledBinary(target, expected);
    }

    public String sha256() {
        return sha256;
    }

    /** The executable, after checking it still is what the bundle carries. */
    public Path verified() throws IOException {
        if (!sha256(Files.readAllBytes(path)).equals(sha256)) {
            throw new IOException("the binary at " + path + " no longer matches its digest " + sha256);
        }
        return path;
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
