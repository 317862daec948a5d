package io.aasm.kernel.internal.report;

import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RefusalReason;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DomainCoverage;
import io.aasm.ports.policy.DomainLowering;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.RequestedControl;
import io.aasm.ports.report.UnmeasuredReason;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Builds the nine pre-launch rows. Requested and achieved stay separate columns; the claim is
 * never coverage-asserting before anything ran (a plan is only "planned").
 */
final class DomainRows {

    /** Which side of the decision the rows describe. */
    enum Basis { NO_BACKEND, PLAN, REFUSED_BY_BACKEND }

    private DomainRows() {
    }

    static List<DomainProjection> build(Optional<PolicyLowering> lowering, Basis basis,
                                        List<PlannedRequirement> outcomes, Optional<BackendCapabilities> caps,
                                        Optional<String> unavailable) {
        List<DomainProjection> rows = new ArrayList<>();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            List<PlannedRequirement> mine = outcomes.stream().filter(p -> p.requirement().domain() == d).toList();
            RequestedControl requested = requested(lowering, d);
            ControlState state = state(basis, requested, mine, unavailable);
            ClaimTerm claim = claim(state, basis);
            Optional<CapabilityReport> report = caps.flatMap(c -> c.reportFor(d));
            String mechanism = basis == Basis.NO_BACKEND ? "none" : report.map(CapabilityReport::mechanism)
                    .orElse("none");
            List<String> limitations = basis != Basis.NO_BACKEND && report.isPresent()
                    && report.get().support() instanceof SupportLevel.Partial p ? p.limitations() : List.of();
            List<String> gaps = lowering.map(l -> l.domains().get(d.ordinal()).residualGaps()).orElse(List.of());
            rows.add(new DomainProjection(d, requested, state, claim, EvidenceBasis.NONE, mechanism, limitations,
                    gaps));
        }
        return rows;
    }

    static RequestedControl requested(Optional<PolicyLowering> lowering, CapabilityDomain d) {
        if (lowering.isEmpty()) {
            return new RequestedControl.NotDerived();
        }
        Optional<ControlRequirement> req = lowering.get().requirements().stream()
                .filter(r -> r.domain() == d).findFirst();
        if (req.isPresent()) {
            return new RequestedControl.Stated(req.get());
        }
        DomainLowering dl = lowering.get().domains().get(d.ordinal());
        if (dl.coverage() instanceof DomainCoverage.NotStated ns) {
            return new RequestedControl.NotStated(ns.node(), ns.schemaDefault());
        }
        if (dl.coverage() instanceof DomainCoverage.PolicyCannotExpress pce) {
            return new RequestedControl.PolicyCannotExpress(pce.detail());
        }
        // Lowered but no requirement carried: the lowering and its requirements disagree.
        return new RequestedControl.NotDerived();
    }

    private static ControlState state(Basis basis, RequestedControl requested, List<PlannedRequirement> mine,
                                      Optional<String> unavailable) {
        if (basis == Basis.NO_BACKEND) {
            return new ControlState.Unmeasured(UnmeasuredReason.NO_BACKEND_SELECTED,
                    "no backend selected: nothing mediates this domain");
        }
        if (unavailable.isPresent() && requested instanceof RequestedControl.Stated) {
            return new ControlState.Unsupported(RefusalReason.BACKEND_UNAVAILABLE, unavailable.get());
        }
        if (mine.isEmpty()) {
            return new ControlState.Unmeasured(UnmeasuredReason.NO_CONTROL_REQUESTED,
                    "policy requests no control for this domain");
        }
        // Several requirements for one domain fold to the weakest state, never the strongest.
        return mine.stream().map(p -> stateOf(p.outcome())).min(Comparator.comparingInt(DomainRows::strength))
                .orElseThrow();
    }

    static ControlState stateOf(RequirementOutcome outcome) {
        if (outcome instanceof RequirementOutcome.Enforced e) {
            return new ControlState.Prevention(e.timing(), e.descendants());
        }
        if (outcome instanceof RequirementOutcome.Observed o) {
            return new ControlState.ObserveOnly(o.timing(), o.descendants());
        }
        if (outcome instanceof RequirementOutcome.Degraded g) {
            return new ControlState.Degraded(g.planned(), g.achieved(), g.reason(), g.detail());
        }
        RequirementOutcome.Unmet u = (RequirementOutcome.Unmet) outcome;
        return new ControlState.Unsupported(u.reason(), u.detail());
    }

    private static int strength(ControlState s) {
        if (s instanceof ControlState.Prevention) {
            return 4;
        }
        if (s instanceof ControlState.ObserveOnly) {
            return 3;
        }
        if (s instanceof ControlState.Degraded) {
            return 2;
        }
        return s instanceof ControlState.Unmeasured ? 1 : 0;
    }

    /** Pre-launch claims: planned at most, and not even that when nothing will run. */
    private static ClaimTerm claim(ControlState state, Basis basis) {
        if (state instanceof ControlState.Unsupported) {
            return ClaimTerm.UNSUPPORTED;
        }
        if (state instanceof ControlState.Degraded) {
            return ClaimTerm.DEGRADED;
        }
        if (state instanceof ControlState.Unmeasured) {
            return ClaimTerm.UNMEASURED;
        }
        return basis == Basis.PLAN ? ClaimTerm.PLANNED : ClaimTerm.UNMEASURED;
    }
}
