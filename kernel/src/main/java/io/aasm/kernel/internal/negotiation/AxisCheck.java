package io.aasm.kernel.internal.negotiation;

import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.Prerequisite;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.capability.Synchrony;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DescendantRequirement;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.backend.RefusalReason;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Checks one requirement against one domain report, axis by axis, in the fixed order of the
 * contract; the first failing axis names the reason. A missing report is "unknown", which can
 * satisfy nothing, and is reported as such rather than as "unsupported".
 */
final class AxisCheck {

    private AxisCheck() {
    }

    static Optional<Shortfall> check(ControlRequirement req, Optional<CapabilityReport> maybeReport) {
        String domain = req.domain().token();
        if (maybeReport.isEmpty()) {
            return fail(RefusalReason.NO_CAPABILITY_REPORTED, "the backend reported nothing about " + domain
                    + "; an unknown capability cannot satisfy a requirement");
        }
        CapabilityReport report = maybeReport.get();
        if (report.support() instanceof SupportLevel.Unsupported u) {
            return fail(RefusalReason.DOMAIN_UNSUPPORTED, "the backend does not support " + domain + ": " + u.reason());
        }
        return req.intent() == RequirementIntent.OBSERVE ? checkObserve(req, report) : checkPrevent(req, report);
    }

    private static Optional<Shortfall> checkPrevent(ControlRequirement req, CapabilityReport report) {
        String domain = req.domain().token();
        if (report.mediation() != Mediation.ENFORCE) {
            return fail(RefusalReason.OBSERVE_ONLY_FOR_PREVENTION_REQUIREMENT, "the backend can only "
                    + (report.mediation() == Mediation.OBSERVE ? "observe" : "ignore") + " " + domain
                    + ", and policy asks for prevention before the effect");
        }
        if (report.timing() != DecisionTiming.PRE) {
            return fail(RefusalReason.DECISION_TOO_LATE, "the backend decides on " + domain + " at timing "
                    + report.timing().token() + ", after the effect could already happen");
        }
        if (report.synchrony() != Synchrony.SYNC) {
            return fail(RefusalReason.DECISION_NOT_SYNCHRONOUS, "the backend's " + domain
                    + " decision is " + report.synchrony().token() + ", so the action is not held until it is made");
        }
        Optional<Shortfall> prerequisites = checkPrerequisites(req, report);
        if (prerequisites.isPresent()) {
            return prerequisites;
        }
        return checkDescendants(req, report);
    }

    private static Optional<Shortfall> checkObserve(ControlRequirement req, CapabilityReport report) {
        if (report.mediation() == Mediation.NONE) {
            return fail(RefusalReason.DOMAIN_UNSUPPORTED, "the backend neither enforces nor observes "
                    + req.domain().token());
        }
        return checkPrerequisites(req, report);
    }

    private static Optional<Shortfall> checkPrerequisites(ControlRequirement req, CapabilityReport report) {
        String missing = report.prerequisites().stream()
                .filter(p -> !p.satisfied())
                .map(AxisCheck::describe)
                .collect(Collectors.joining("; "));
        if (!missing.isEmpty()) {
            return fail(RefusalReason.PREREQUISITE_UNSATISFIED, "prerequisites for " + req.domain().token()
                    + " not observed on this host: " + missing);
        }
        return Optional.empty();
    }

    private static Optional<Shortfall> checkDescendants(ControlRequirement req, CapabilityReport report) {
        if (req.descendants() == DescendantRequirement.PROCESS_TREE
                && report.descendants() != DescendantCoverage.PROCESS_TREE) {
            return fail(RefusalReason.DESCENDANT_COVERAGE_INSUFFICIENT, "policy asks " + req.domain().token()
                    + " to cover the whole process tree; the backend's coverage is " + report.descendants().token());
        }
        return Optional.empty();
    }

    private static String describe(Prerequisite p) {
        PrerequisiteStatus s = p.status();
        String detail = s instanceof PrerequisiteStatus.Unsatisfied u ? u.detail()
                : s instanceof PrerequisiteStatus.Unchecked c ? c.detail() : "";
        return p.requirement() + " (" + s.token() + (detail.isEmpty() ? "" : ": " + detail) + ")";
    }

    private static Optional<Shortfall> fail(RefusalReason reason, String detail) {
        return Optional.of(new Shortfall(reason, detail));
    }
}
