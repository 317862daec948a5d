package io.aasm.backend.vm.internal.vz;

import io.aasm.backend.vm.internal.image.Digests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The helper binary, checked before every use: a regular file (no symlink), executable, owned by the user or
 * root and writable by no one else, in a folder of the same kind, whose SHA-256 equals the configured pin. The
 * pin is the trust check, not the code signature: an ad-hoc signature ({@code codesign -s -}, what the
 * documented build makes) names no signer, so anyone can make one for any binary, while a Mach-O signature and
 * its entitlements are embedded in the file, so the pin covers them too. Whether the running helper really holds the entitlement is asked of
 * the helper itself ({@code aasm-vz check}), which reads it from its own process as the framework will.
 */
final class HelperBinary {
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    private HelperBinary() {
    }

    /** Why {@code path} must not be run as the helper, or empty when it may. Hashes the file (small, fast). */
    static Optional<String> problem(Optional<Path> path, Optional<String> pin, int uid) {
        if (path.isEmpty()) {
            return Optional.of("no aasm-vz helper is configured (helper.path in io.aasm.backend.vm.macos; build and "
                    + "sign it as docs/vm.md says)");
        }
        Path p = path.get();
        if (pin.isEmpty() || !SHA256.matcher(pin.get().toLowerCase(Locale.ROOT)).matches()) {
            return Optional.of("no valid helper.sha256 pin is configured for " + p + " (64 hex digits: the digest of "
                    + "the signed helper, printed by `shasum -a 256`)");
        }
        try {
            PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                return Optional.of("the helper " + p + " is not a regular file (a symlink is not followed)");
            }
            Set<PosixFilePermission> perms = a.permissions();
            if (!perms.contains(PosixFilePermission.OWNER_EXECUTE)) {
                return Optional.of("the helper " + p + " is not executable");
            }
            if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                return Optional.of("the helper " + p + " is writable by its group or others");
            }
            int owner = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (owner != uid && owner != 0) {
                return Optional.of("the helper " + p + " is owned by uid " + owner + ", neither the user nor root");
            }
            Optional<String> folder = folder(p.toAbsolutePath().getParent(), uid);
            if (folder.isPresent()) {
                return folder;
            }
            String digest = Digests.sha256(p);
            if (!digest.equals(pin.get().toLowerCase(Locale.ROOT))) {
                return Optional.of("the helper " + p + " does not match its pin: sha256 " + digest + ", pinned "
                        + pin.get() + " [helper_digest_mismatch]");
            }
            return Optional.empty();
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.of("the helper " + p + " cannot be checked: " + e);
        }
    }

    /**
     * The helper's folder must be the user's or root's and writable by no one else: whoever can write it can put
     * another file under the helper's name between the digest and the start.
     */
    private static Optional<String> folder(Path dir, int uid) throws IOException {
        PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class);
        int owner = (Integer) Files.getAttribute(dir, "unix:uid");
        if (owner != uid && owner != 0) {
            return Optional.of("the helper's folder " + dir + " is owned by uid " + owner + ", neither the user nor root");
        }
        if (a.permissions().contains(PosixFilePermission.GROUP_WRITE)
                || a.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
            return Optional.of("the helper's folder " + dir + " is writable by its group or others");
        }
        return Optional.empty();
    }
}
