package io.aasm.backend.landlockseccomp.internal.probe;

import java.util.Objects;

/** What a controlled probe pair showed for one domain. Only DENIAL_OBSERVED lets a domain prevent. */
public record ProbeResult(Verdict verdict, String detail) {
    public ProbeResult {
        Objects.requireNonNull(verdict);
        Objects.requireNonNull(detail);
        if (detail.contains("\n")) {
            throw new IllegalArgumentException("probe detail must be one line");
        }
    }

    public enum Verdict {
        /** The control (with the grant) had its effect and the denial (without it) had none. */
        DENIAL_OBSERVED,
        /** Anything else: control failed, denial not observed, probe could not run. */
        INCONCLUSIVE
    }

    public static ProbeResult observed(String detail) {
        return new ProbeResult(Verdict.DENIAL_OBSERVED, detail);
    }

    public static ProbeResult inconclusive(String detail) {
        return new ProbeResult(Verdict.INCONCLUSIVE, detail);
    }
}
