package io.aasm.ports.backend;

import java.util.Objects;

/** How a launched program ended. */
public sealed interface ExitDisposition {
    /** The conventional shell exit status (code, 128+signal, 125/126/127 for launch failures). */
    int shellStatus();

    record Exited(int code) implements ExitDisposition {
        @Override
        public int shellStatus() {
            return code;
        }
    }

    record Signalled(int signal) implements ExitDisposition {
        @Override
        public int shellStatus() {
            return 128 + signal;
        }
    }

    /** The program never ran: the boundary could not be installed, or exec failed. */
    record NotStarted(LaunchFailureKind kind, String detail) implements ExitDisposition {
        public NotStarted {
            Objects.requireNonNull(kind);
            Objects.requireNonNull(detail);
        }

        @Override
        public int shellStatus() {
            return switch (kind) {
                case NOT_FOUND -> 127;
                case NOT_EXECUTABLE -> 126;
                case BOUNDARY_REFUSED, BACKEND_ERROR -> 125;
            };
        }
    }
}
