package io.aasm.kernel.internal.negotiation;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.backend.AchievedControl;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.LaunchPosture;
import io.aasm.ports.plan.PlanRefusal;
import io.aasm.ports.plan.PlanResult;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RefusalReason;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.plan.UnmetRequirement;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.RequirementIntent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one negotiation every path uses (real launch, dry run, auto walk). Pure: the same spec,
 * identity and capabilities always give the same verdict. Each requirement is judged on its own,
 * so one requirement's degradation never changes another's outcome; every unmet required
 * requirement is listed, not just the first.
 */
public final class Negotiator {

    /** {@code caps}: {@code plan.capabilities()} as the caller read it, once. */
    public Negotiation negotiate(ExecutionSpec spec, BackendIdentity backend, BackendCapabilities caps,
                                 BackendPlan plan, Function<ControlRequirement, List<String>> lowering) {
        if (caps.availability() instanceof Availability.Unavailable u) {
            // Nothing can be met on an unavailable backend, whatever each requirement's posture.
            String detail = "the `" + backend.id() + "` backend is unavailable on this host: " + u.reason();
            List<UnmetRequirement> unmet = spec.requirements().stream()
                    .map(r -> new UnmetRequirement(r, RefusalReason.BACKEND_UNAVAILABLE, detail)).toList();
            List<PlannedRequirement> outcomes = spec.requirements().stream()
                    .map(r -> new PlannedRequirement(r, new RequirementOutcome.Unmet(RefusalReason.BACKEND_UNAVAILABLE,
                            detail), List.of())).toList();
            return new Negotiation(new PlanResult.Refused(new PlanRefusal(backend.id(), Optional.of(u.reason()),
                    unmet)), outcomes);
        }
        List<PlannedRequirement> outcomes = new ArrayList<>();
        List<UnmetRequirement> unmet = new ArrayList<>();
        boolean degraded = false;
        for (ControlRequirement req : spec.requirements()) {
            Optional<CapabilityReport> report = caps.reportFor(req.domain());
            Optional<Shortfall> shortfall = AxisCheck.check(req, report);
            RequirementOutcome outcome;
            List<String> steps = List.of();
            if (shortfall.isEmpty()) {
                CapabilityReport r = report.orElseThrow();
                outcome = req.intent() == RequirementIntent.OBSERVE
                        ? new RequirementOutcome.Observed(r.timing(), r.descendants())
                        : new RequirementOutcome.Enforced(r.timing(), r.descendants());
                steps = lowering.apply(req);
            } else {
                Shortfall s = shortfall.get();
                switch (req.posture()) {
                    case REQUIRED -> {
                        unmet.add(new UnmetRequirement(req, s.reason(), s.detail()));
                        outcome = new RequirementOutcome.Unmet(s.reason(), s.detail());
                    }
                    case OPTIONAL -> {
                        degraded = true;
                        outcome = new RequirementOutcome.Unmet(s.reason(), s.detail());
                    }
                    default -> {
                        degraded = true;
                        outcome = new RequirementOutcome.Degraded(req.intent(), achieved(req, report),
                                s.reason(), s.detail());
                    }
                }
            }
            outcomes.add(new PlannedRequirement(req, outcome, steps));
        }
        if (!unmet.isEmpty()) {
            return new Negotiation(new PlanResult.Refused(new PlanRefusal(backend.id(), Optional.empty(), unmet)),
                    outcomes);
        }
        LaunchPosture posture = degraded ? LaunchPosture.DEGRADED : LaunchPosture.READY;
        return new Negotiation(new PlanResult.Planned(new EnforcementPlan(backend, spec, outcomes, posture, plan)),
                outcomes);
    }

    /** What still holds when a requirement degrades: observation if the backend can observe, else nothing. */
    private static AchievedControl achieved(ControlRequirement req, Optional<CapabilityReport> report) {
        if (req.intent() == RequirementIntent.PREVENT_BEFORE_EFFECT && report.isPresent()) {
            CapabilityReport r = report.get();
            boolean canObserve = r.mediation() != Mediation.NONE
                    && !(r.support() instanceof SupportLevel.Unsupported)
                    && r.prerequisites().stream().allMatch(p -> p.satisfied());
            if (canObserve) {
                return new AchievedControl.ObservedOnly(r.timing(), r.descendants());
            }
        }
        return new AchievedControl.Nothing();
    }
}
