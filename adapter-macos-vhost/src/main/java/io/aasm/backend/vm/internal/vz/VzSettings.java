package io.aasm.backend.vm.internal.vz;

import io.aasm.backend.vm.internal.runtime.VmSettings;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@code aasm-macos-vm} driver's settings as plain values. {@code helper} is the signed {@code aasm-vz}
 * binary and {@code helperSha256} the digest it must have (the pin: nothing runs without one). {@code image} is
 * the guest image folder (on macOS it cannot be assembled from a Debian package, so it must be given).
 * {@code macosOnly} is false only in tests that drive the Java side against a stand-in helper on Linux: no
 * configuration key reaches it.
 */
public record VzSettings(VmSettings vm, Optional<Path> helper, Optional<String> helperSha256, Optional<Path> image,
                         boolean macosOnly) {

    /** Whether this JVM runs on macOS (the only host with Virtualization.framework). */
    public static boolean onMacos() {
        return System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("mac");
    }
}
