package io.aasm.kernel.internal.negotiation;

import static io.aasm.kernel.internal.testing.Caps.allStrong;
import static io.aasm.kernel.internal.testing.Caps.allStrongExcept;
import static io.aasm.kernel.internal.testing.Caps.strong;
import static io.aasm.kernel.internal.testing.Caps.with;
import static io.aasm.kernel.internal.testing.Policies.req;
import static io.aasm.kernel.internal.testing.Policies.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.kernel.internal.testing.Caps;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.capability.Mediation;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.capability.Synchrony;
import io.aasm.ports.backend.AchievedControl;
import io.aasm.ports.backend.LaunchPosture;
import io.aasm.ports.plan.PlanRefusal;
import io.aasm.ports.plan.PlanResult;
import io.aasm.ports.backend.RefusalReason;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DescendantRequirement;
import io.aasm.ports.policy.RequirementIntent;
import io.aasm.ports.policy.RequirementPosture;
import io.aasm.ports.policy.Scope;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The negotiation contract: one reason per weakened axis, every unmet listed, postures kept apart. */
class NegotiatorContractTest {

    static final BackendIdentity ID = new BackendIdentity("test-backend", "1",
            new Provenance("test", "Apache-2.0", false, Optional.empty(), ProvenanceStatus.FIRST_PARTY));
    static final CapabilityDomain D = CapabilityDomain.FILESYSTEM_WRITE;

    private final Negotiator negotiator = new Negotiator();

    private Negotiation negotiate(ExecutionSpec spec, BackendCapabilities caps) {
        io.aasm.ports.backend.BackendPlan plan = new io.aasm.ports.backend.BackendPlan() {
            @Override
            public BackendCapabilities capabilities() {
                return caps;
            }

            @Override
            public List<String> steps(io.aasm.ports.policy.ControlRequirement r) {
                return List.of("step " + r.domain().token());
            }
        };
        return negotiator.negotiate(spec, ID, caps, plan, plan::steps);
    }

    private static PlanRefusal refusal(Negotiation n) {
        return assertInstanceOf(PlanResult.Refused.class, n.result()).refusal();
    }

    private static PlanResult.Planned planned(Negotiation n) {
        return assertInstanceOf(PlanResult.Planned.class, n.result());
    }

    static Stream<Arguments> weakenedAxes() {
        return Stream.of(
                Arguments.of("mediation observe", (UnaryOperator<CapabilityReport>) r -> with(r, Mediation.OBSERVE),
                        RefusalReason.OBSERVE_ONLY_FOR_PREVENTION_REQUIREMENT),
                Arguments.of("mediation none", (UnaryOperator<CapabilityReport>) r -> with(r, Mediation.NONE),
                        RefusalReason.OBSERVE_ONLY_FOR_PREVENTION_REQUIREMENT),
                Arguments.of("timing in_line", (UnaryOperator<CapabilityReport>) r -> with(r, DecisionTiming.IN_LINE),
                        RefusalReason.DECISION_TOO_LATE),
                Arguments.of("timing post", (UnaryOperator<CapabilityReport>) r -> with(r, DecisionTiming.POST),
                        RefusalReason.DECISION_TOO_LATE),
                Arguments.of("synchrony best_effort",
                        (UnaryOperator<CapabilityReport>) r -> with(r, Synchrony.BEST_EFFORT),
                        RefusalReason.DECISION_NOT_SYNCHRONOUS),
                Arguments.of("prerequisite unsatisfied",
                        (UnaryOperator<CapabilityReport>) r -> with(r, new PrerequisiteStatus.Unsatisfied("missing")),
                        RefusalReason.PREREQUISITE_UNSATISFIED),
                Arguments.of("prerequisite unchecked",
                        (UnaryOperator<CapabilityReport>) r -> with(r, new PrerequisiteStatus.Unchecked("not probed")),
                        RefusalReason.PREREQUISITE_UNSATISFIED),
                Arguments.of("descendants target only",
                        (UnaryOperator<CapabilityReport>) r -> with(r, DescendantCoverage.TARGET_PROCESS_ONLY),
                        RefusalReason.DESCENDANT_COVERAGE_INSUFFICIENT),
                Arguments.of("descendants unmeasured",
                        (UnaryOperator<CapabilityReport>) r -> with(r, DescendantCoverage.UNMEASURED),
                        RefusalReason.DESCENDANT_COVERAGE_INSUFFICIENT),
                Arguments.of("support unsupported",
                        (UnaryOperator<CapabilityReport>) r -> with(r, new SupportLevel.Unsupported("no way")),
                        RefusalReason.DOMAIN_UNSUPPORTED));
    }

    @ParameterizedTest(name = "{0} refuses with its own reason")
    @MethodSource("weakenedAxes")
    void everyWeakenedAxisRefusesWithItsOwnReason(String axis, UnaryOperator<CapabilityReport> weaken,
                                                  RefusalReason expected) {
        Negotiation n = negotiate(spec(req(D)), allStrongExcept(D, weaken.apply(strong(D))));
        PlanRefusal r = refusal(n);
        assertEquals(1, r.unmet().size());
        assertEquals(expected, r.unmet().get(0).reason(), axis);
        assertTrue(r.backendUnavailable().isEmpty());
        // the control: the same spec against the unweakened report plans
        planned(negotiate(spec(req(D)), allStrong()));
    }

    @Test
    void axesAreEvaluatedInContractOrder() {
        CapabilityReport r = with(with(with(strong(D), DecisionTiming.POST), Synchrony.BEST_EFFORT),
                DescendantCoverage.UNMEASURED);
        assertEquals(RefusalReason.DECISION_TOO_LATE, refusal(negotiate(spec(req(D)), allStrongExcept(D, r)))
                .unmet().get(0).reason());
        CapabilityReport s = with(with(strong(D), new PrerequisiteStatus.Unsatisfied("x")),
                DescendantCoverage.UNMEASURED);
        assertEquals(RefusalReason.PREREQUISITE_UNSATISFIED,
                refusal(negotiate(spec(req(D)), allStrongExcept(D, s))).unmet().get(0).reason());
    }

    @Test
    void missingReportMeansUnknownNotUnsupported() {
        PlanRefusal r = refusal(negotiate(spec(req(D)), allStrongExcept(D, null)));
        assertEquals(RefusalReason.NO_CAPABILITY_REPORTED, r.unmet().get(0).reason());
        assertTrue(r.unmet().get(0).detail().contains("unknown"));
    }

    @Test
    void unavailableBackendRefusesWithTheReason() {
        PlanRefusal r = refusal(negotiate(spec(req(D)),
                BackendCapabilities.unavailable("not on this host", PlatformBoundary.SHARED_HOST_KERNEL)));
        assertEquals(Optional.of("not on this host"), r.backendUnavailable());
        PlanRefusal two = refusal(negotiate(spec(req(D), req(CapabilityDomain.IPC, RequirementPosture.OPTIONAL)),
                BackendCapabilities.unavailable("not on this host", PlatformBoundary.SHARED_HOST_KERNEL)));
        assertEquals(List.of(RefusalReason.BACKEND_UNAVAILABLE, RefusalReason.BACKEND_UNAVAILABLE),
                two.unmet().stream().map(u -> u.reason()).toList(), "every requirement is unmet, whatever its posture");
    }

    @Test
    void everyUnmetRequirementIsListedNotJustTheFirst() {
        BackendCapabilities caps = Caps.all(r -> switch (r.domain()) {
            case FILESYSTEM_READ -> with(r, Mediation.OBSERVE);
            case NETWORK_EGRESS -> with(r, DecisionTiming.POST);
            case RESOURCE -> with(r, new SupportLevel.Unsupported("none"));
            default -> r;
        });
        ExecutionSpec s = spec(req(CapabilityDomain.FILESYSTEM_READ), req(CapabilityDomain.FILESYSTEM_WRITE),
                req(CapabilityDomain.NETWORK_EGRESS), req(CapabilityDomain.RESOURCE));
        PlanRefusal r = refusal(negotiate(s, caps));
        assertEquals(List.of(RefusalReason.OBSERVE_ONLY_FOR_PREVENTION_REQUIREMENT, RefusalReason.DECISION_TOO_LATE,
                RefusalReason.DOMAIN_UNSUPPORTED), r.unmet().stream().map(u -> u.reason()).toList());
        assertEquals(List.of(CapabilityDomain.FILESYSTEM_READ, CapabilityDomain.NETWORK_EGRESS,
                CapabilityDomain.RESOURCE), r.unmet().stream().map(u -> u.requirement().domain()).toList());
    }

    @Test
    void optionalUnmetIsRecordedAndTheLaunchProceedsDegraded() {
        ExecutionSpec s = spec(req(D, RequirementPosture.OPTIONAL), req(CapabilityDomain.FILESYSTEM_READ));
        PlanResult.Planned p = planned(negotiate(s, allStrongExcept(D, with(strong(D), Mediation.OBSERVE))));
        assertEquals(LaunchPosture.DEGRADED, p.plan().posture());
        RequirementOutcome.Unmet u = assertInstanceOf(RequirementOutcome.Unmet.class,
                p.plan().planned().get(0).outcome());
        assertEquals(RefusalReason.OBSERVE_ONLY_FOR_PREVENTION_REQUIREMENT, u.reason());
        assertTrue(p.plan().planned().get(0).lowering().isEmpty(), "nothing is installed for an unmet requirement");
        assertInstanceOf(RequirementOutcome.Enforced.class, p.plan().planned().get(1).outcome());
    }

    @Test
    void degradeKeepsPlannedAndAchievedAndDoesNotLeakToOtherRequirements() {
        ExecutionSpec s = spec(req(CapabilityDomain.FILESYSTEM_READ), req(D, RequirementPosture.DEGRADE),
                req(CapabilityDomain.NETWORK_EGRESS, RequirementPosture.DEGRADE), req(CapabilityDomain.SYSCALL));
        BackendCapabilities caps = Caps.all(r -> switch (r.domain()) {
            case FILESYSTEM_WRITE -> with(with(r, Mediation.OBSERVE), DecisionTiming.POST);
            case NETWORK_EGRESS -> with(r, new SupportLevel.Unsupported("none"));
            default -> r;
        });
        PlanResult.Planned p = planned(negotiate(s, caps));
        assertEquals(LaunchPosture.DEGRADED, p.plan().posture());
        assertInstanceOf(RequirementOutcome.Enforced.class, p.plan().planned().get(0).outcome());
        RequirementOutcome.Degraded w = assertInstanceOf(RequirementOutcome.Degraded.class,
                p.plan().planned().get(1).outcome());
        assertEquals(RequirementIntent.PREVENT_BEFORE_EFFECT, w.planned());
        assertEquals(new AchievedControl.ObservedOnly(DecisionTiming.POST, DescendantCoverage.PROCESS_TREE),
                w.achieved());
        assertEquals(RefusalReason.OBSERVE_ONLY_FOR_PREVENTION_REQUIREMENT, w.reason());
        RequirementOutcome.Degraded e = assertInstanceOf(RequirementOutcome.Degraded.class,
                p.plan().planned().get(2).outcome());
        assertEquals(new AchievedControl.Nothing(), e.achieved());
        assertEquals(RefusalReason.DOMAIN_UNSUPPORTED, e.reason());
        assertEquals(new RequirementOutcome.Enforced(DecisionTiming.PRE, DescendantCoverage.PROCESS_TREE),
                p.plan().planned().get(3).outcome());
    }

    @Test
    void allStrongPlanIsReadyAndCarriesBackendLowering() {
        PlanResult.Planned p = planned(negotiate(spec(req(D), req(CapabilityDomain.IPC)), allStrong()));
        assertEquals(LaunchPosture.READY, p.plan().posture());
        assertEquals(List.of("step filesystem_write"), p.plan().planned().get(0).lowering());
        assertEquals(ID, p.plan().backend());
    }

    @Test
    void probeSpecAndRealSpecGiveTheSameVerdict() {
        List<ControlRequirement> reqs = List.of(req(D), req(CapabilityDomain.NETWORK_EGRESS, RequirementPosture.DEGRADE),
                req(CapabilityDomain.RESOURCE));
        BackendCapabilities caps = Caps.all(r -> r.domain() == CapabilityDomain.NETWORK_EGRESS
                ? with(r, Synchrony.BEST_EFFORT) : r);
        Negotiation probe = negotiate(spec("/bin/true", reqs), caps);
        Negotiation real = negotiate(spec("/usr/local/bin/agent-tool", reqs), caps);
        assertEquals(probe.outcomes(), real.outcomes());
        assertEquals(planned(probe).plan().posture(), planned(real).plan().posture());
        BackendCapabilities weak = Caps.all(r -> with(r, DecisionTiming.POST));
        assertEquals(refusal(negotiate(spec("/bin/true", reqs), weak)).unmet(),
                refusal(negotiate(spec("/usr/local/bin/agent-tool", reqs), weak)).unmet());
    }

    @Test
    void targetOnlyRequirementAcceptsTargetOnlyCoverage() {
        ControlRequirement t = new ControlRequirement(D, RequirementIntent.PREVENT_BEFORE_EFFECT,
                RequirementPosture.REQUIRED, DescendantRequirement.TARGET_PROCESS_ONLY, new Scope.WholeDomain());
        planned(negotiate(spec(t), allStrongExcept(D, with(strong(D), DescendantCoverage.TARGET_PROCESS_ONLY))));
    }

    @Test
    void observeIntentNeedsMediationButNotPrevention() {
        ControlRequirement o = new ControlRequirement(D, RequirementIntent.OBSERVE, RequirementPosture.REQUIRED,
                DescendantRequirement.PROCESS_TREE, new Scope.WholeDomain());
        PlanResult.Planned p = planned(negotiate(spec(o),
                allStrongExcept(D, with(with(strong(D), Mediation.OBSERVE), DecisionTiming.POST))));
        assertInstanceOf(RequirementOutcome.Observed.class, p.plan().planned().get(0).outcome());
        assertEquals(RefusalReason.DOMAIN_UNSUPPORTED, refusal(negotiate(spec(o),
                allStrongExcept(D, with(strong(D), Mediation.NONE)))).unmet().get(0).reason());
    }
}
