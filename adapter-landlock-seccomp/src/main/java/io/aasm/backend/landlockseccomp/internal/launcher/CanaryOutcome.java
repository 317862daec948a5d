package io.aasm.backend.landlockseccomp.internal.launcher;

/** The launcher's canary line: which kinds were attempted and which denied, or why none could run. */
public sealed interface CanaryOutcome {
    record Ran(int kinds, int denied) implements CanaryOutcome {
        public boolean wasDenied(int bit) {
            return (kinds & bit) != 0 && (denied & bit) != 0;
        }
    }

    record Unavailable(String why) implements CanaryOutcome {
    }
}
