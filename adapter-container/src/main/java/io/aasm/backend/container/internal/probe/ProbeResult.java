package io.aasm.backend.container.internal.probe;

import java.util.Objects;

/** One probe pair's verdict on this host, with what was observed. */
public record ProbeResult(Verdict verdict, String detail) {
    public enum Verdict { DENIAL_OBSERVED, INCONCLUSIVE }

    public ProbeResult {
        Objects.requireNonNull(verdict);
        Objects.requireNonNull(detail);
    }

    public static ProbeResult observed(String detail) {
        return new ProbeResult(Verdict.DENIAL_OBSERVED, detail);
    }

    public static ProbeResult inconclusive(String detail) {
        return new ProbeResult(Verdict.INCONCLUSIVE, detail);
    }

    public boolean observed() {
        return verdict == Verdict.DENIAL_OBSERVED;
    }
}
