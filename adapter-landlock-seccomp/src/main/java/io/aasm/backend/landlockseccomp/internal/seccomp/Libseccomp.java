package io.aasm.backend.landlockseccomp.internal.seccomp;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * libseccomp 2.x through JNA. We only build and export the program here; the launcher loads it.
 * libseccomp handles the architecture check and the x32 syscall bit for us.
 */
public interface Libseccomp extends Library {
    int SCMP_ACT_KILL_PROCESS = 0x80000000;
    int SCMP_ACT_ERRNO_BASE = 0x00050000;
    int SCMP_ACT_ALLOW = 0x7fff0000;
    int SCMP_FLTATR_ACT_BADARCH = 2;
    int NR_SCMP_ERROR = -1;

    Pointer seccomp_init(int defaultAction);

    void seccomp_release(Pointer ctx);

    int seccomp_attr_set(Pointer ctx, int attr, int value);

    int seccomp_syscall_resolve_name(String name);

    /** The name of syscall {@code num} on {@code arch} (0: native), malloc'd, or null when unknown. */
    Pointer seccomp_syscall_resolve_num_arch(int arch, int num);

    int seccomp_rule_add_array(Pointer ctx, int action, int syscall, int argCount, Pointer args);

    int seccomp_export_bpf(Pointer ctx, int fd);

    static int errno(int e) {
        return SCMP_ACT_ERRNO_BASE | (e & 0xffff);
    }

    /** Loads libseccomp.so.2; throws UnsatisfiedLinkError when it is not installed. */
    static Libseccomp load() {
        return Holder.INSTANCE;
    }

    static boolean available() {
        try {
            return load() != null;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return false;
        }
    }

    final class Holder {
        static final Libseccomp INSTANCE = Native.load("seccomp", Libseccomp.class);

        private Holder() {
        }
    }
}
