package io.aasm.backend.landlockseccomp.internal.launcher;

import java.util.Objects;

/** How a launch ended, as reported by the launcher's status channel. */
public sealed interface ExitOutcome {
    record Exited(int code) implements ExitOutcome {
    }

    record Signalled(int signal) implements ExitOutcome {
    }

    /** The program never ran; {@code why} is not {@link StartOutcome.Started}. */
    record NeverStarted(StartOutcome why) implements ExitOutcome {
        public NeverStarted {
            Objects.requireNonNull(why);
            if (why instanceof StartOutcome.Started) {
                throw new IllegalArgumentException("a started launch is not NeverStarted");
            }
        }
    }

    /** The program started but the launcher could not report its end (for example it was killed). */
    record LauncherFailed(String detail, int launcherStatus) implements ExitOutcome {
        public LauncherFailed {
            Objects.requireNonNull(detail);
        }
    }
}
