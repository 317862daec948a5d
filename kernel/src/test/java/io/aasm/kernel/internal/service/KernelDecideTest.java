package io.aasm.kernel.internal.service;

import static io.aasm.kernel.internal.service.KernelFixture.bind;
import static io.aasm.kernel.internal.service.KernelFixture.kernel;
import static io.aasm.kernel.internal.service.KernelFixture.request;
import static io.aasm.kernel.internal.service.KernelFixture.sources;
import static io.aasm.kernel.internal.testing.Policies.policy;
import static io.aasm.kernel.internal.testing.Policies.stmt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.kernel.BackendStatus;
import io.aasm.ports.kernel.FrameworkProperties;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.PolicyCheck;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.DomainProjection;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ReportStage;
import io.aasm.ports.report.ReportedPosture;
import io.aasm.ports.report.UnmeasuredReason;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KernelDecideTest {

    private static final String POLICY = "p.test";

    private static KernelComponent withPolicy(Optional<IsolationClass> isolation) {
        KernelComponent k = kernel();
        sources(k).with(POLICY, policy(isolation,
                stmt(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of("/tmp/work"))),
                stmt(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("LANG")))));
        return k;
    }

    @Test
    void noneWithoutPolicyIsUnconfinedAndNeverReady() {
        KernelComponent k = kernel();
        LaunchDecision d = k.decide(request(IsolationClass.NONE, null));
        IsolationReport r = assertInstanceOf(LaunchDecision.Unconfined.class, d).report();
        assertEquals(ReportedPosture.NO_BOUNDARY, r.posture());
        assertEquals(ReportStage.PRE_LAUNCH, r.stage());
        assertEquals("<none>", r.policyOrigin());
        assertEquals("/usr/bin/true", r.target().program());
        assertEquals(9, r.domains().size());
        for (DomainProjection row : r.domains()) {
            ControlState.Unmeasured u = assertInstanceOf(ControlState.Unmeasured.class, row.state());
            assertEquals(UnmeasuredReason.NO_BACKEND_SELECTED, u.reason());
            assertFalse(row.claim().assertsCoverage());
        }
        assertTrue(r.credentials().ambientUnremoved().contains("API_TOKEN"));
        assertFalse(r.leastAuthority());
    }

    @Test
    void isolationClassComesFromPolicyWhenTheRequestStatesNone() {
        KernelComponent k = withPolicy(Optional.of(IsolationClass.AUTO));
        LaunchDecision d = k.decide(request(Optional.empty(), Optional.empty(), Optional.of(POLICY), "true",
                List.of(), "/"));
        LaunchDecision.Refused r = assertInstanceOf(LaunchDecision.Refused.class, d);
        assertEquals(IsolationClass.AUTO, r.report().isolationClass());
        assertEquals(ReportedPosture.REFUSED, r.report().posture());
    }

    @Test
    void pinnedBackendWithNoneIsRefused() {
        KernelComponent k = kernel();
        bind(k, new TestBackend("alpha", Caps.allStrong()), 0);
        LaunchDecision d = k.decide(request(Optional.of(IsolationClass.NONE), Optional.of("alpha"), Optional.empty(),
                "true", List.of(), "/"));
        LaunchDecision.Refused r = assertInstanceOf(LaunchDecision.Refused.class, d);
        assertTrue(r.message().contains("pins backend alpha but its isolation class is none"), r.message());
        assertTrue(r.message().endsWith("[backend_pinned_without_boundary]"), r.message());
        assertFalse(r.message().contains("--"), "the kernel names no command-line flag: " + r.message());
        assertEquals("backend_pinned_without_boundary", r.report().refusals().get(0).reason());
    }

    @Test
    void boundaryWithZeroRequirementsIsRefusedWithoutAskingAnyBackend() {
        KernelComponent k = kernel();
        TestBackend alpha = new TestBackend("alpha", Caps.allStrong());
        bind(k, alpha, 0);
        LaunchDecision d = k.decide(request(IsolationClass.AUTO, null));
        LaunchDecision.Refused r = assertInstanceOf(LaunchDecision.Refused.class, d);
        assertEquals("no_requirements_lowered", r.report().refusals().get(0).reason());
        assertNotEquals(ReportedPosture.READY, r.report().posture());
        assertEquals(0, alpha.totalCalls());
    }

    @Test
    void rejectedPolicyIsAValueWithItsProblems() {
        KernelComponent k = kernel();
        sources(k).rejecting("bad.test", "unknown key `filesystm`");
        LaunchDecision d = k.decide(request(IsolationClass.AUTO, "bad.test"));
        LaunchDecision.PolicyRejected r = assertInstanceOf(LaunchDecision.PolicyRejected.class, d);
        assertEquals("bad.test:4:7: unknown key `filesystm` (fix it)", r.problems().get(0).render());
        LaunchDecision none = k.decide(request(IsolationClass.AUTO, "policy.unknownformat"));
        assertTrue(assertInstanceOf(LaunchDecision.PolicyRejected.class, none).problems().get(0).message()
                .contains("installed formats: test"));
    }

    @Test
    void verifyReachesTheBackendsSpecOnlyWhenAsked() {
        KernelComponent k = withPolicy(Optional.empty());
        bind(k, new TestBackend("alpha", Caps.allStrong()), 0);
        LaunchDecision.Confined asked = assertInstanceOf(LaunchDecision.Confined.class,
                k.decide(request(IsolationClass.AUTO, POLICY).withVerify(true)));
        assertTrue(asked.plan().spec().verify(), "--verify did not reach the backend");
        LaunchDecision.Confined plain = assertInstanceOf(LaunchDecision.Confined.class,
                k.decide(request(IsolationClass.AUTO, POLICY)));
        assertFalse(plain.plan().spec().verify(), "control: without --verify the spec does not ask for it");
    }

    @Test
    void aBackendThatAppearsLaterIsUsedWithoutRestart() {
        KernelComponent k = withPolicy(Optional.empty());
        assertInstanceOf(LaunchDecision.Refused.class, k.decide(request(IsolationClass.AUTO, POLICY)));
        TestBackend alpha = new TestBackend("alpha", Caps.allStrong());
        bind(k, alpha, 0);
        LaunchDecision.Confined c = assertInstanceOf(LaunchDecision.Confined.class,
                k.decide(request(IsolationClass.AUTO, POLICY)));
        assertEquals("alpha", c.plan().backend().id());
        assertEquals(Map.of("LANG", "C"), c.plan().spec().environment());
        assertTrue(c.report().credentials().removed().contains("API_TOKEN"));
        // no descriptor inventory is taken, so least authority does not hold: DEGRADED, never READY
        assertEquals(ReportedPosture.DEGRADED, c.report().posture());
        k.removeBackend(alpha);
        assertInstanceOf(LaunchDecision.Refused.class, k.decide(request(IsolationClass.AUTO, POLICY)));
    }

    @Test
    void environmentValuesNeverAppearInDecisionsOrReports() {
        KernelComponent k = withPolicy(Optional.empty());
        bind(k, new TestBackend("alpha", Caps.allStrong()), 0);
        for (IsolationClass c : IsolationClass.values()) {
            LaunchDecision d = k.decide(request(c, POLICY));
            assertFalse(d.toString().contains("t0k3n-value"), c + ": " + d);
        }
        LaunchDecision.Unconfined u = assertInstanceOf(LaunchDecision.Unconfined.class,
                k.decide(request(IsolationClass.NONE, POLICY)));
        assertEquals(java.util.Set.of("API_TOKEN"), u.report().credentials().ambientUnremoved());
    }

    @Test
    void backendsAndProbeReportFaultsAsValues() {
        KernelComponent k = kernel();
        TestBackend ok = new TestBackend("alpha", Caps.allStrong());
        TestBackend bad = new TestBackend("beta", Caps.allStrong()).throwing("capabilities", "refreshCapabilities");
        bind(k, ok, 0);
        bind(k, bad, 0);
        List<BackendStatus> all = k.backends();
        assertEquals(2, all.size());
        BackendStatus beta = all.stream().filter(s -> s.id().equals("beta")).findFirst().orElseThrow();
        assertTrue(beta.capabilities().isEmpty());
        assertTrue(beta.fault().orElseThrow().contains("capabilities() threw IllegalStateException"));
        assertTrue(beta.identity().isPresent());
        assertTrue(k.probe("alpha", true).orElseThrow().capabilities().isPresent());
        assertEquals(1, ok.calls("refreshCapabilities"));
        assertTrue(k.probe("gamma", false).isEmpty());
    }

    @Test
    void checkPolicyLowersOrListsProblems() {
        KernelComponent k = withPolicy(Optional.empty());
        PolicyCheck good = k.checkPolicy(POLICY);
        assertTrue(good.valid());
        assertEquals(2, good.lowering().orElseThrow().requirements().size());
        assertFalse(k.checkPolicy("missing.test").valid());
    }

    @Test
    void walkOrderComesFromConfigOrTheFrameworkProperty() {
        KernelComponent configured = kernel("beta", "alpha");
        bind(configured, new TestBackend("gamma", Caps.allStrong()), 5);
        assertEquals(List.of("beta", "alpha", "gamma"), configured.autoWalkOrder());
        KernelComponent overridden = kernel(Map.of(FrameworkProperties.AUTO_WALK, " delta , beta"), "beta", "alpha");
        assertEquals(List.of("delta", "beta"), overridden.autoWalkOrder());
    }
}
