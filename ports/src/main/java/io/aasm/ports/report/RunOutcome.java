package io.aasm.ports.report;

import java.util.Objects;

/** How the program ended (post-run reports only). */
public record RunOutcome(String disposition, int shellStatus, String detail) {
    public RunOutcome {
        Objects.requireNonNull(disposition);
        Objects.requireNonNull(detail);
    }
}
