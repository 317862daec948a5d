package io.aasm.ports.backend;

import io.aasm.ports.capability.Token;

/** Why one requirement cannot be met; evaluated in the order declared here. */
public enum RefusalReason implements Token {
    BACKEND_UNAVAILABLE("backend_unavailable"),
    NO_CAPABILITY_REPORTED("no_capability_reported"),
    DOMAIN_UNSUPPORTED("domain_unsupported"),
    OBSERVE_ONLY_FOR_PREVENTION_REQUIREMENT("observe_only_for_prevention_requirement"),
    DECISION_TOO_LATE("decision_too_late"),
    DECISION_NOT_SYNCHRONOUS("decision_not_synchronous"),
    NO_EVIDENCE_PRODUCED("no_evidence_produced"),
    PREREQUISITE_UNSATISFIED("prerequisite_unsatisfied"),
    DESCENDANT_COVERAGE_INSUFFICIENT("descendant_coverage_insufficient"),
    SCOPE_NOT_EXPRESSIBLE("scope_not_expressible"),
    BACKEND_FAULT("backend_fault");

    private final String token;

    RefusalReason(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }
}
