package io.aasm.backend.landlockseccomp.internal.launcher;

import java.util.Objects;

/** Whether the launcher reached the program's first instruction. */
public sealed interface StartOutcome {
    /**
     * execve succeeded. {@code setupNanos}: launcher start to just before seccomp+execve (includes receiving the
     * plan); {@code installNanos}: plan read to the same point, i.e. the boundary installation alone (-1 if unknown).
     */
    record Started(long setupNanos, long installNanos) implements StartOutcome {
    }

    /** The plan could not be installed exactly; nothing ran (launcher exit 121). */
    record Refused(String reason, String detail) implements StartOutcome {
        public Refused {
            Objects.requireNonNull(reason);
            Objects.requireNonNull(detail);
        }
    }

    /** The boundary was installed but execve failed with {@code errno}. */
    record ExecFailed(int errno) implements StartOutcome {
        public static final int ENOENT = 2, EACCES = 13, ENOEXEC = 8;

        /** Shell convention: 127 not found, 126 not executable. */
        public int shellStatus() {
            return errno == ENOENT ? 127 : 126;
        }
    }

    /** The launcher ended or misbehaved without a start report (crash, channel failure). */
    record LauncherFailed(String detail) implements StartOutcome {
        public LauncherFailed {
            Objects.requireNonNull(detail);
        }
    }
}
