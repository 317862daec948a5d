package io.aasm.backend.container.internal.runtime;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchFailureKind;

/**
 * The engine's one status number, read back into how the program ended. The container's init reports a
 * program killed by signal N as 128+N (and the engine does the same for an init killed by a signal), so
 * 129-192 is a signal death; shell status is the same number either way, as with aasm-native.
 */
final class ExitMapping {
    private ExitMapping() {
    }

    static ExitDisposition map(int status, boolean deadlineHit, int signalled, String execFailure) {
        if (deadlineHit) {
            return new ExitDisposition.Signalled(9);
        }
        if ((status == 127 || status == 126) && !execFailure.isEmpty()) {
            return new ExitDisposition.NotStarted(status == 127 ? LaunchFailureKind.NOT_FOUND
                    : LaunchFailureKind.NOT_EXECUTABLE, "the container's init could not exec " + execFailure);
        }
        if (signalled != 0 && status == 128 + signalled) {
            return new ExitDisposition.Signalled(signalled);
        }
        if (status > 128 && status <= 128 + 64) {
            return new ExitDisposition.Signalled(status - 128);
        }
        return new ExitDisposition.Exited(status);
    }

    /** Without an init the runtime itself execs the program: its error says why it could not. */
    static LaunchFailureKind startFailure(String message) {
        String m = message == null ? "" : message;
        if (m.contains("exec:") && m.contains("no such file or directory")) {
            return LaunchFailureKind.NOT_FOUND;
        }
        if (m.contains("exec:") && m.contains("permission denied")) {
            return LaunchFailureKind.NOT_EXECUTABLE;
        }
        return LaunchFailureKind.BACKEND_ERROR;
    }
}
