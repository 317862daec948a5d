package io.aasm.kernel.internal.selection;

import static io.aasm.kernel.internal.testing.Caps.with;
import static io.aasm.kernel.internal.testing.Policies.req;
import static io.aasm.kernel.internal.testing.Policies.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.kernel.internal.negotiation.Negotiator;
import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.PlatformBoundary;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.report.CandidateVerdict;
import io.aasm.ports.report.ConsideredBackend;
import io.aasm.ports.report.SelectionMode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The auto walk, the process walk and pinning, with every backend call counted. */
class SelectorTest {

    private static final ExecutionSpec SPEC = spec(req(CapabilityDomain.FILESYSTEM_WRITE),
            req(CapabilityDomain.NETWORK_EGRESS));

    private final Selector selector = new Selector(new Negotiator());

    private static BackendCapabilities weakEgress() {
        return Caps.all(r -> r.domain() == CapabilityDomain.NETWORK_EGRESS ? with(r, DecisionTiming.POST) : r);
    }

    private static InstalledBackend installed(TestBackend b, int ranking) {
        return new InstalledBackend(b.id, ranking, b);
    }

    private Selection auto(WalkOrder order, InstalledBackend... installed) {
        return selector.select(IsolationClass.AUTO, Optional.empty(), SPEC, List.of(installed), order);
    }

    private static List<CandidateVerdict> verdicts(Selection s) {
        return s.record().considered().stream().map(ConsideredBackend::verdict).toList();
    }

    @Test
    void firstEligibleWinsAndLaterCandidatesAreNotAsked() {
        TestBackend a = new TestBackend("a", weakEgress());
        TestBackend b = new TestBackend("b", Caps.allStrong());
        TestBackend c = new TestBackend("c", Caps.allStrong());
        Selection s = auto(WalkOrder.parse("a,b,c"), installed(a, 0), installed(b, 0), installed(c, 0));
        Selection.Chosen chosen = assertInstanceOf(Selection.Chosen.class, s);
        assertEquals("b", chosen.plan().backend().id());
        assertEquals(SelectionMode.AUTOMATIC, s.record().mode());
        assertEquals(List.of(CandidateVerdict.REJECTED_REQUIREMENTS_UNMET, CandidateVerdict.SELECTED), verdicts(s));
        assertEquals(List.of(CapabilityDomain.NETWORK_EGRESS), s.record().considered().get(0).unmetDomains());
        assertEquals(0, c.totalCalls(), "a candidate after the selected one is never asked");
        assertEquals(1, b.calls("plan"), "one launch is lowered once");
        assertEquals(2, b.calls("steps"));
    }

    @Test
    void noEligibleCandidateRefusesNamingEveryCandidateAndWhy() {
        TestBackend unmet = new TestBackend("unmet", weakEgress());
        TestBackend away = new TestBackend("away",
                BackendCapabilities.unavailable("needs a newer host", PlatformBoundary.SHARED_HOST_KERNEL));
        TestBackend broken = new TestBackend("broken", Caps.allStrong()).throwing("plan");
        Selection s = auto(WalkOrder.parse("ghost,unmet,away,broken"), installed(unmet, 0), installed(away, 0),
                installed(broken, 0));
        Selection.NotChosen n = assertInstanceOf(Selection.NotChosen.class, s);
        assertEquals(List.of(CandidateVerdict.NOT_INSTALLED, CandidateVerdict.REJECTED_REQUIREMENTS_UNMET,
                CandidateVerdict.REJECTED_UNAVAILABLE, CandidateVerdict.REJECTED_BACKEND_FAULT), verdicts(s));
        assertTrue(n.message().contains("  - ghost: not installed"), n.message());
        assertTrue(n.message().contains("  - unmet: requirements unmet: network_egress (decision_too_late)"),
                n.message());
        assertTrue(n.message().contains("  - away: unavailable: needs a newer host"), n.message());
        assertTrue(n.message().contains("  - broken: backend fault: plan() threw IllegalStateException:"
                + " broken test failure in plan"), n.message());
        assertEquals(List.of("no_backend_eligible", "not_installed", "rejected_requirements_unmet",
                "rejected_unavailable", "rejected_backend_fault"),
                n.launchWide().stream().map(e -> e.reason()).toList());
    }

    @Test
    void aThrowingBackendBecomesANamedDiagnosticAndTheWalkMovesOn() {
        TestBackend who = new TestBackend("who", Caps.allStrong()).throwing("identity");
        TestBackend low = new TestBackend("low", Caps.allStrong()).throwing("steps");
        TestBackend good = new TestBackend("good", Caps.allStrong());
        Selection s = auto(WalkOrder.parse("who,low,good"), installed(who, 0), installed(low, 0), installed(good, 0));
        assertEquals("good", assertInstanceOf(Selection.Chosen.class, s).plan().backend().id());
        List<ConsideredBackend> c = s.record().considered();
        assertEquals(CandidateVerdict.REJECTED_BACKEND_FAULT, c.get(0).verdict());
        assertTrue(c.get(0).detail().contains("identity() threw IllegalStateException"), c.get(0).detail());
        assertEquals(CandidateVerdict.REJECTED_BACKEND_FAULT, c.get(1).verdict());
        assertTrue(c.get(1).detail().contains("plan().steps(filesystem_write) threw"), c.get(1).detail());
    }

    @Test
    void aMalformedAnswerIsTheBackendsFaultToo() {
        TestBackend nulls = new TestBackend("nulls", Caps.allStrong()) {
            @Override
            public io.aasm.ports.backend.BackendPlan plan(io.aasm.ports.backend.ExecutionSpec spec) {
                io.aasm.ports.backend.BackendPlan real = super.plan(spec);
                return new io.aasm.ports.backend.BackendPlan() {
                    @Override
                    public BackendCapabilities capabilities() {
                        return real.capabilities();
                    }

                    @Override
                    public List<String> steps(io.aasm.ports.policy.ControlRequirement requirement) {
                        return java.util.Arrays.asList("step", null);
                    }
                };
            }
        };
        TestBackend empty = new TestBackend("empty", null);
        TestBackend good = new TestBackend("good", Caps.allStrong());
        Selection s = auto(WalkOrder.parse("nulls,empty,good"), installed(nulls, 0), installed(empty, 0),
                installed(good, 0));
        assertEquals("good", assertInstanceOf(Selection.Chosen.class, s).plan().backend().id());
        assertEquals(List.of(CandidateVerdict.REJECTED_BACKEND_FAULT, CandidateVerdict.REJECTED_BACKEND_FAULT,
                CandidateVerdict.SELECTED), verdicts(s));
        assertTrue(s.record().considered().get(1).detail().contains("plan().capabilities() returned nothing"));
    }

    @Test
    void unlistedBackendsFollowByRankingThenId() {
        TestBackend a = new TestBackend("a", weakEgress());
        TestBackend b = new TestBackend("b", weakEgress());
        TestBackend c = new TestBackend("c", weakEgress());
        TestBackend d = new TestBackend("d", weakEgress());
        List<InstalledBackend> all = List.of(installed(a, 1), installed(b, 0), installed(d, 5), installed(c, 5));
        assertEquals(List.of("b", "c", "d", "a"), WalkOrder.parse("b").candidates(all));
        Selection s = auto(WalkOrder.parse("b"), all.toArray(InstalledBackend[]::new));
        assertEquals(List.of("b", "c", "d", "a"), s.record().considered().stream().map(ConsideredBackend::id).toList());
    }

    @Test
    void emptyWalkWithNothingInstalledStillRefusesWithAReason() {
        Selection.NotChosen n = assertInstanceOf(Selection.NotChosen.class, auto(WalkOrder.parse("")));
        assertTrue(n.message().contains("no backend is installed"), n.message());
    }

    @Test
    void processWalkSkipsBackendsThatAreNotAProcessBoundary() {
        TestBackend vm = new TestBackend("vm", new BackendCapabilities(Caps.allStrong().availability(),
                PlatformBoundary.SEPARATE_KERNEL, Caps.allStrong().reports(), Optional.empty()));
        TestBackend proc = new TestBackend("proc", Caps.allStrong());
        Selection s = selector.select(IsolationClass.PROCESS, Optional.empty(), SPEC,
                List.of(installed(vm, 0), installed(proc, 0)), WalkOrder.parse("vm,proc"));
        assertEquals("proc", assertInstanceOf(Selection.Chosen.class, s).plan().backend().id());
        assertEquals(SelectionMode.DEFAULT, s.record().mode());
        assertEquals(CandidateVerdict.REJECTED_UNAVAILABLE, s.record().considered().get(0).verdict());
        assertTrue(s.record().considered().get(0).detail().contains("separate_kernel"));
    }

    @Test
    void eachClassWalksOnlyItsOwnPlatformBoundary() {
        TestBackend vm = new TestBackend("vm", boundary(PlatformBoundary.SEPARATE_KERNEL));
        TestBackend box = new TestBackend("box", boundary(PlatformBoundary.CONTAINER));
        TestBackend proc = new TestBackend("proc", Caps.allStrong());
        List<InstalledBackend> all = List.of(installed(proc, 0), installed(box, 0), installed(vm, 0));
        for (var want : java.util.Map.of(IsolationClass.PROCESS, "proc", IsolationClass.CONTAINER, "box",
                IsolationClass.VM, "vm", IsolationClass.AUTO, "proc").entrySet()) {
            Selection s = selector.select(want.getKey(), Optional.empty(), SPEC, all, WalkOrder.parse("proc,box,vm"));
            assertEquals(want.getValue(), assertInstanceOf(Selection.Chosen.class, s).plan().backend().id(),
                    want.getKey().token());
        }
        Selection pinned = selector.select(IsolationClass.VM, Optional.of("box"), SPEC, all, WalkOrder.parse(""));
        Selection.NotChosen n = assertInstanceOf(Selection.NotChosen.class, pinned);
        assertTrue(n.record().considered().get(0).detail().contains("isolation class vm needs separate_kernel"),
                n.record().considered().get(0).detail());
    }

    private static BackendCapabilities boundary(PlatformBoundary b) {
        return new BackendCapabilities(Caps.allStrong().availability(), b, Caps.allStrong().reports(), Optional.empty());
    }

    @Test
    void pinnedUnknownIdRefusesListingInstalledBackends() {
        TestBackend a = new TestBackend("zeta", Caps.allStrong());
        TestBackend b = new TestBackend("alpha", Caps.allStrong());
        Selection s = selector.select(IsolationClass.AUTO, Optional.of("nope"), SPEC,
                List.of(installed(a, 0), installed(b, 0)), WalkOrder.parse("zeta"));
        Selection.NotChosen n = assertInstanceOf(Selection.NotChosen.class, s);
        assertEquals("the pinned backend nope is not installed here (installed backends: alpha, zeta)"
                + " [backend_not_installed]", n.message());
        assertEquals(SelectionMode.EXPLICIT, s.record().mode());
        assertEquals(0, a.totalCalls() + b.totalCalls());
    }

    @Test
    void pinnedBackendIsTheOnlyOneAskedAndItsRefusalListsEveryDomain() {
        TestBackend first = new TestBackend("first", Caps.allStrong());
        TestBackend pinned = new TestBackend("pinned", Caps.all(r -> with(r, DecisionTiming.POST)));
        Selection s = selector.select(IsolationClass.AUTO, Optional.of("pinned"), SPEC,
                List.of(installed(first, 9), installed(pinned, 0)), WalkOrder.parse("first"));
        Selection.NotChosen n = assertInstanceOf(Selection.NotChosen.class, s);
        assertTrue(n.message().startsWith("the `pinned` backend refused this launch before anything started"));
        assertTrue(n.message().contains("  - filesystem_write: "), n.message());
        assertTrue(n.message().contains("  - network_egress: "), n.message());
        assertEquals(0, first.totalCalls());
        assertTrue(n.backend().isPresent());
    }

    @Test
    void pinnedUnavailableBackendNamesTheReason() {
        TestBackend away = new TestBackend("away",
                BackendCapabilities.unavailable("kernel too old", PlatformBoundary.SHARED_HOST_KERNEL));
        Selection.NotChosen n = assertInstanceOf(Selection.NotChosen.class, selector.select(IsolationClass.PROCESS,
                Optional.of("away"), SPEC, List.of(installed(away, 0)), WalkOrder.parse("")));
        assertTrue(n.message().contains("kernel too old") && n.message().contains("There is no fallback"),
                n.message());
        assertEquals("backend_unavailable", n.launchWide().get(0).reason());
        assertTrue(n.message().endsWith("[backend_unavailable]"), n.message());
        assertFalse(n.message().contains("--"), "the kernel names no command-line flag: " + n.message());
    }
}
