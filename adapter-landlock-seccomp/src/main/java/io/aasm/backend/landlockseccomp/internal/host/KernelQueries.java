package io.aasm.backend.landlockseccomp.internal.host;

import java.util.OptionalInt;

/** Facts only a system call can tell; an interface so detection is testable with fake answers. */
public interface KernelQueries {
    /** Landlock ABI version, empty when the kernel has no Landlock (ENOSYS) or it is disabled (EOPNOTSUPP). */
    OptionalInt landlockAbi();

    /** True when seccomp filter mode exists and returning ERRNO and KILL_PROCESS is available. */
    boolean seccompFilterAvailable();

    int euid();
}
