package io.aasm.conformance.internal.run;

import java.util.Objects;

/**
 * One cell of the results: the outcome, a one-line detail, the report's claim for the scenario's
 * domain ({@code state/claim}, or {@code -} when nothing was launched), and whether it fails the suite.
 */
public record Verdict(String scenario, String domain, String backend, Outcome outcome, String detail,
                      String reportClaim, boolean claimsPrevention) {
    public Verdict {
        Objects.requireNonNull(scenario);
        Objects.requireNonNull(domain);
        Objects.requireNonNull(backend);
        Objects.requireNonNull(outcome);
        Objects.requireNonNull(detail);
        Objects.requireNonNull(reportClaim);
    }

    /** A test that cannot fail is a defect: an inconclusive control under a prevention claim fails. */
    public boolean fails() {
        return outcome.failsAlone() || outcome == Outcome.INCONCLUSIVE_CONTROL && claimsPrevention;
    }
}
