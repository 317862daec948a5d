package io.aasm.backend.vm.internal.probe;

import java.util.Objects;

/** What a probe pair showed for one domain in a guest on this host. Only DENIAL_OBSERVED lets it prevent. */
public record ProbeResult(Verdict verdict, String detail) {
    public enum Verdict {
        /** The control had its effect and the denial had none. */
        DENIAL_OBSERVED,
        /** Anything else: the control failed, the denial was not observed, or the probe could not run. */
        INCONCLUSIVE
    }

    public ProbeResult {
        Objects.requireNonNull(verdict);
        Objects.requireNonNull(detail);
        detail = detail.replace('\n', ' ');
    }

    public static ProbeResult observed(String detail) {
        return new ProbeResult(Verdict.DENIAL_OBSERVED, detail);
    }

    public static ProbeResult inconclusive(String detail) {
        return new ProbeResult(Verdict.INCONCLUSIVE, detail);
    }
}
