package io.aasm.ports.evidence;

import io.aasm.ports.capability.Token;

/** The claim vocabulary (seed document). Only denied_before_execution is a prevention claim. */
public enum ClaimTerm implements Token {
    OBSERVED("observed"),
    DETECTED("detected"),
    EVALUATED("evaluated"),
    DENIED_BEFORE_EXECUTION("denied_before_execution"),
    REDACTED("redacted"),
    APPROVAL_REQUIRED("approval_required"),
    DEGRADED("degraded"),
    UNMEASURED("unmeasured"),
    EXPERIMENTAL("experimental"),
    PLANNED("planned"),
    UNSUPPORTED("unsupported");

    private final String token;

    ClaimTerm(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }

    /** Terms that assert something was covered; strongest first. */
    public static final java.util.List<ClaimTerm> COVERAGE_RANK = java.util.List.of(
            DENIED_BEFORE_EXECUTION, APPROVAL_REQUIRED, REDACTED, DETECTED, EVALUATED, OBSERVED);

    public boolean assertsCoverage() {
        return COVERAGE_RANK.contains(this);
    }
}
