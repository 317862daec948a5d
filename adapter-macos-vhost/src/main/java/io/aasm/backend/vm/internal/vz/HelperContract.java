package io.aasm.backend.vm.internal.vz;

import io.aasm.backend.vm.internal.image.GuestImage;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Version 1 of the contract between Java and the {@code aasm-vz} helper (src/main/swift/aasm-vz/CONTRACT.md).
 * {@code aasm-vz check} answers whether this helper can run a VM here (without starting one); {@code aasm-vz
 * run} reads a configuration of {@code key value} lines on stdin up to {@code end}, boots the guest, and from
 * then on its stdin and stdout are the guest's control port {@code ctl}, byte for byte. The configuration goes
 * on stdin rather than argv so that no other local user can read share paths from the process table.
 */
final class HelperContract {
    static final int VERSION = 1;
    static final String MAGIC = "aasm-vz " + VERSION;
    /** The first line of a successful {@code check}. */
    static final String CHECK_ANSWER = "aasm-vz contract " + VERSION;

    static final int EXIT_STOPPED = 0;
    static final int EXIT_USAGE = 64;
    static final int EXIT_UNSUPPORTED = 69;
    static final int EXIT_BOOT_FAILED = 70;
    static final int EXIT_STOPPED_WITH_ERROR = 71;
    static final int EXIT_NO_ENTITLEMENT = 77;

    /** One folder behind a share tag; read-only is enforced by the host (VZSharedDirectory readOnly). */
    record Share(String tag, boolean readOnly, String hostPath) {
    }

    private HelperContract() {
    }

    /** The configuration block; a value holding a line break is refused (it would forge another key). */
    static byte[] config(GuestImage image, int cpus, int memoryMib, List<Share> shares) {
        StringBuilder b = new StringBuilder(MAGIC).append('\n');
        line(b, "kernel", image.kernel().toString());
        line(b, "initrd", image.initramfs().toString());
        line(b, "cmdline", image.cmdline());
        line(b, "cpus", Integer.toString(cpus));
        line(b, "memory_mib", Integer.toString(memoryMib));
        for (Share s : shares) {
            line(b, "share", s.tag() + " " + (s.readOnly() ? "ro" : "rw") + " " + s.hostPath());
        }
        b.append("end\n");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void line(StringBuilder b, String key, String value) {
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0 || value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("the helper's " + key + " holds a line break or NUL: " + value.strip());
        }
        b.append(key).append(' ').append(value).append('\n');
    }

    /** What an exit status of the helper means, for reports. */
    static String meaning(int exit) {
        return switch (exit) {
            case EXIT_STOPPED -> "the VM stopped";
            case EXIT_USAGE -> "the helper rejected its configuration (exit 64)";
            case EXIT_UNSUPPORTED -> "Virtualization.framework cannot run a VM on this host (exit 69)";
            case EXIT_BOOT_FAILED -> "the guest failed to boot (exit 70)";
            case EXIT_STOPPED_WITH_ERROR -> "the VM stopped with an error (exit 71)";
            case EXIT_NO_ENTITLEMENT -> "the helper is not signed with the com.apple.security.virtualization "
                    + "entitlement (exit 77) [entitlement_missing]";
            default -> "the helper exited with " + exit;
        };
    }
}
