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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.kernel.internal.testing.Caps;
import io.aasm.kernel.internal.testing.TestBackend;
import io.aasm.kernel.internal.testing.TestMediator;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceBasis;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.EgressVerdict;
import io.aasm.ports.transport.MediationAccess;
import io.aasm.ports.transport.TransportMediation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kernel's side of transport mediation: deciding, selecting a backend that relays, opening, evidence. */
class MediatedLaunchTest {
    @TempDir
    Path dir;

    static final EgressGrant PYPI = new EgressGrant(Protocol.TCP, "pypi.test", 443, 443);

    private KernelComponent kernelWith(List<EgressGrant> grants, TestBackend... backends) {
        KernelComponent k = kernel();
        sources(k).with("p.test", policy(Optional.empty(),
                stmt(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(grants)),
                stmt(CapabilityDomain.NAME_RESOLUTION, new Scope.PinnedHosts(new TreeMap<>(java.util.Map.of(
                        "pypi.test", "127.0.0.2"))))));
        for (TestBackend b : backends) {
            bind(k, b, 0);
        }
        return k;
    }

    private LaunchRequest req(IsolationClass isolation, String script) {
        return request(Optional.of(isolation), Optional.empty(), Optional.of("p.test"), "sh", List.of("-c", script),
                dir.toString());
    }

    private static EgressDecision decision(EgressVerdict v) {
        return new EgressDecision(Instant.now(), "x", "http-connect", "pypi.test", 443, Optional.of("127.0.0.2"), v,
                v == EgressVerdict.ALLOWED ? Optional.of("{host: pypi.test, port: 443}") : Optional.empty(),
                v == EgressVerdict.DENIED ? Optional.of("no grant") : Optional.empty(), 10, 20, 1000);
    }

    @Test
    void aLaunchThatNeedsMediationIsRefusedWhenNoMediatorIsInstalledAndRunsWhenSwitchedOff() {
        TestBackend relaying = new TestBackend("alpha", Caps.allStrong());
        relaying.relays = true;
        KernelComponent k = kernelWith(List.of(PYPI), relaying);
        LaunchDecision.Refused r = assertInstanceOf(LaunchDecision.Refused.class, k.decide(req(IsolationClass.AUTO,
                "true")));
        assertTrue(r.message().contains("no transport mediator is installed"), r.message());
        assertEquals("transport_mediation_unavailable", r.report().refusals().get(0).reason());
        LaunchDecision.Confined off = assertInstanceOf(LaunchDecision.Confined.class,
                k.decide(req(IsolationClass.AUTO, "true").withTransportMediation(false)));
        assertEquals(TransportMediation.State.OFF, off.plan().spec().transport().state());
        assertFalse(off.plan().mediated());
    }

    @Test
    void theWalkSkipsABackendThatCannotRelayAndThePlanCarriesTheMediation() {
        TestBackend own = new TestBackend("own-egress", Caps.allStrong());
        TestBackend relaying = new TestBackend("relaying", Caps.allStrong());
        relaying.relays = true;
        KernelComponent k = kernelWith(List.of(PYPI), own, relaying);
        k.addMediator(new TestMediator());
        LaunchDecision.Confined c = assertInstanceOf(LaunchDecision.Confined.class, k.decide(req(IsolationClass.AUTO,
                "true")));
        assertEquals("relaying", c.plan().backend().id());
        assertTrue(c.plan().mediated());
        assertEquals(3128, c.plan().spec().transport().boundaryPort());
        String skipped = c.report().selection().orElseThrow().considered().get(0).detail();
        assertTrue(skipped.contains("network_egress"), c.report().selection().toString());
        TestBackend onlyOwn = new TestBackend("own-egress", Caps.allStrong());
        KernelComponent k2 = kernelWith(List.of(PYPI), onlyOwn);
        k2.addMediator(new TestMediator());
        LaunchDecision.Refused r = assertInstanceOf(LaunchDecision.Refused.class, k2.decide(req(IsolationClass.AUTO,
                "true")));
        assertTrue(r.message().contains("network_egress"), r.message());
    }

    @Test
    void aMediatedLaunchOpensARelaySessionClosesItAfterTheRunAndReportsItsDecisions() throws Exception {
        TestBackend relaying = new TestBackend("relaying", Caps.allStrong());
        relaying.relays = true;
        KernelComponent k = kernelWith(List.of(PYPI), relaying);
        TestMediator mediator = new TestMediator();
        mediator.decisions = List.of(decision(EgressVerdict.ALLOWED), decision(EgressVerdict.DENIED));
        k.addMediator(mediator);
        LaunchSession s = k.launch(k.decide(req(IsolationClass.AUTO, "printf %s \"$http_proxy\" > env.txt")));
        assertEquals(0, s.await().shellStatus());
        assertEquals("http://127.0.0.1:3128", Files.readString(dir.resolve("env.txt")));
        TestMediator.Session session = mediator.sessions.get(0);
        assertEquals(1, session.closed);
        assertEquals(MediationAccess.RELAY, session.request.access());
        assertEquals(List.of(PYPI), session.request.grants());
        assertEquals("127.0.0.2", session.request.pinnedHosts().get("pypi.test"));
        assertTrue(relaying.lastPlan.mediation().isPresent());
        IsolationReport post = s.postRunReport();
        assertEquals(ClaimTerm.DENIED_BEFORE_EXECUTION, post.row(CapabilityDomain.NETWORK_EGRESS).claim());
        assertEquals(EvidenceBasis.DECISION, post.row(CapabilityDomain.NETWORK_EGRESS).evidence());
        List<EvidenceRecord> records = post.evidence().orElseThrow().records();
        assertEquals(2, records.stream().filter(r -> r.kind() == EvidenceKind.DECISION).count());
        assertTrue(records.stream().anyMatch(r -> r.detail().contains("2 connection attempt(s) reached the "
                + "supervisor's proxy, 1 allowed, 1 denied")), records.toString());
        assertEquals(1, session.closed, "closed exactly once");
    }

    @Test
    void aMediatorThatCannotListenRefusesTheLaunchBeforeTheBackendPreparesAnything() {
        TestBackend relaying = new TestBackend("relaying", Caps.allStrong());
        relaying.relays = true;
        KernelComponent k = kernelWith(List.of(PYPI), relaying);
        TestMediator mediator = new TestMediator();
        mediator.failing = true;
        k.addMediator(mediator);
        LaunchDecision d = k.decide(req(IsolationClass.AUTO, "true"));
        assertThrows(io.aasm.ports.backend.LaunchException.class, () -> k.launch(d));
        assertEquals(0, relaying.calls("prepare"));
    }

    @Test
    void aBackendThatFailsToPrepareLeavesNoSessionOpen() {
        TestBackend relaying = new TestBackend("relaying", Caps.allStrong()).throwing("prepare");
        relaying.relays = true;
        KernelComponent k = kernelWith(List.of(PYPI), relaying);
        TestMediator mediator = new TestMediator();
        k.addMediator(mediator);
        LaunchDecision d = k.decide(req(IsolationClass.AUTO, "true"));
        assertThrows(io.aasm.ports.backend.LaunchException.class, () -> k.launch(d));
        assertEquals(1, mediator.sessions.get(0).closed);
    }

    @Test
    void withoutABoundaryTheProgramIsStillMediatedAndNoRowClaimsIt() throws Exception {
        KernelComponent k = kernelWith(List.of(PYPI));
        TestMediator mediator = new TestMediator();
        mediator.decisions = List.of(decision(EgressVerdict.DENIED));
        k.addMediator(mediator);
        LaunchDecision.Unconfined u = assertInstanceOf(LaunchDecision.Unconfined.class,
                k.decide(req(IsolationClass.NONE, "printf %s \"$http_proxy\" > env.txt")));
        assertTrue(u.spec().transport().mediated());
        LaunchSession s = k.launch(u);
        assertEquals(0, s.await().shellStatus());
        assertEquals("http://127.0.0.1:0", Files.readString(dir.resolve("env.txt")));
        assertEquals(MediationAccess.LOOPBACK, mediator.sessions.get(0).request.access());
        IsolationReport post = s.postRunReport();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            assertFalse(post.row(d).claim().assertsCoverage(), d.token());
            assertEquals(EvidenceBasis.NONE, post.row(d).evidence(), d.token());
        }
        EvidenceRecord denied = post.evidence().orElseThrow().records().get(0);
        assertEquals(Optional.empty(), denied.domain());
        assertEquals(ClaimTerm.DENIED_BEFORE_EXECUTION, denied.claim());
        assertEquals("transport-mediation", post.evidence().get().backendId());
        LaunchDecision.Unconfined off = assertInstanceOf(LaunchDecision.Unconfined.class,
                k.decide(req(IsolationClass.NONE, "true").withTransportMediation(false)));
        assertFalse(off.spec().transport().mediated());
    }

    @Test
    void launchesWithoutEgressGrantsBeyondLoopbackNeverOpenASession() throws Exception {
        TestBackend relaying = new TestBackend("relaying", Caps.allStrong());
        relaying.relays = true;
        KernelComponent k = kernelWith(List.of(new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 8080, 8080)),
                relaying);
        TestMediator mediator = new TestMediator();
        k.addMediator(mediator);
        LaunchDecision.Confined c = assertInstanceOf(LaunchDecision.Confined.class, k.decide(req(IsolationClass.AUTO,
                "true")));
        assertEquals(TransportMediation.State.NOT_NEEDED, c.plan().spec().transport().state());
        assertEquals(0, k.launch(c).await().shellStatus());
        assertEquals(List.of(), mediator.requests);
    }
}
