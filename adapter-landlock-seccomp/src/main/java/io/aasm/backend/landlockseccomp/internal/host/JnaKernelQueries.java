package io.aasm.backend.landlockseccomp.internal.host;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.util.OptionalInt;

/** Asks the running kernel through JNA. Only queries: nothing here restricts the JVM. */
public final class JnaKernelQueries implements KernelQueries {
    private static final int LANDLOCK_CREATE_RULESET_VERSION = 1;
    private static final int PR_GET_SECCOMP = 21;
    private static final int SECCOMP_GET_ACTION_AVAIL = 2;
    private static final int SECCOMP_RET_KILL_PROCESS = 0x80000000;
    private static final int SECCOMP_RET_ERRNO = 0x00050000;

    private final Arch arch;

    public JnaKernelQueries(Arch arch) {
        this.arch = arch;
    }

    @Override
    public OptionalInt landlockAbi() {
        long v = LibC.INSTANCE.syscall(Arch.LANDLOCK_CREATE_RULESET, Pointer.NULL, 0L,
                LANDLOCK_CREATE_RULESET_VERSION);
        return v > 0 ? OptionalInt.of((int) v) : OptionalInt.empty();
    }

    @Override
    public boolean seccompFilterAvailable() {
        // PR_GET_SECCOMP fails with EINVAL when the kernel was built without seccomp.
        if (LibC.INSTANCE.prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0) {
            return false;
        }
        return actionAvailable(SECCOMP_RET_ERRNO) && actionAvailable(SECCOMP_RET_KILL_PROCESS);
    }

    private boolean actionAvailable(int action) {
        try (Memory m = new Memory(4)) {
            m.setInt(0, action);
            long r = LibC.INSTANCE.syscall(arch.seccompSyscall(), SECCOMP_GET_ACTION_AVAIL, 0, m);
            if (r != 0) {
                Native.getLastError();
            }
            return r == 0;
        }
    }

    @Override
    public int euid() {
        return LibC.INSTANCE.geteuid();
    }
}
