package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launch of the real backend carries one canary per prevented domain: each denial becomes a DECISION
 * record tied to the launch by one nonce, which is what lets the post-run report say "denied before
 * execution". Control: the same launch without canaries has no decision record at all. (That a canary
 * which gets through refuses the launch is LauncherCanaryTest's, against a deliberately broken boundary.)
 */
class CanaryEvidenceTest {
    @TempDir
    Path tmp;

    private static final Set<CapabilityDomain> CANARIED = Set.of(CapabilityDomain.FILESYSTEM_READ,
            CapabilityDomain.FILESYSTEM_WRITE, CapabilityDomain.NETWORK_EGRESS, CapabilityDomain.SYSCALL,
            CapabilityDomain.PROCESS_CREATION, CapabilityDomain.IPC, CapabilityDomain.NAME_RESOLUTION,
            CapabilityDomain.RESOURCE, CapabilityDomain.CREDENTIAL);

    private ExecutionSpec spec(Path out) {
        List<ControlRequirement> reqs = List.of(read(), write(out.toString()),
                req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()),
                req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("ptrace", "mkdir"))),
                req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain()),
                req(CapabilityDomain.IPC, new Scope.WholeDomain()),
                req(CapabilityDomain.NAME_RESOLUTION, new Scope.WholeDomain()),
                req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())),
                req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(),
                        OptionalLong.empty(), OptionalLong.of(256), OptionalLong.empty(), OptionalLong.empty())));
        // /bin/true itself: process creation is denied, so no shell may fork an actor here.
        return new ExecutionSpec("/bin/true", List.of(), tmp.toString(), IdentityRef.anonymous(), reqs, Map.of(),
                CredentialPosture.none(), new Stdio.Inherit());
    }

    @Test
    void everyPreventedDomainHasItsCanaryDenialAsDecisionEvidence() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        var execution = Harness.shared().start(spec(out));
        assertEquals(new ExitDisposition.Exited(0), execution.await());
        EnforcementEvidence ev = execution.evidence();
        List<EvidenceRecord> decisions = ev.records().stream().filter(r -> r.kind() == EvidenceKind.DECISION).toList();
        assertEquals(CANARIED, decisions.stream().map(r -> r.domain().orElseThrow()).collect(Collectors.toSet()),
                decisions.toString());
        for (CapabilityDomain d : CANARIED) {
            assertTrue(ev.supportsPreventionClaim(d), d.token());
        }
        Set<String> nonces = decisions.stream().map(r -> r.detail().split(" ")[1].replace(":", ""))
                .collect(Collectors.toSet());
        assertEquals(1, nonces.size(), "one nonce ties every record to this launch: " + decisions);
        assertTrue(decisions.stream().anyMatch(r -> r.detail().contains("mkdir(2)")), decisions.toString());
        // the record names the port the canary was refused on (it was once read after the listener closed: ":0")
        String egress = decisions.stream().filter(r -> r.domain().orElseThrow() == CapabilityDomain.NETWORK_EGRESS)
                .findFirst().orElseThrow().detail();
        assertTrue(egress.matches(".*listener on 127\\.0\\.0\\.1:[1-9][0-9]* .*"), egress);
    }

    /**
     * With egress granted by port there is no network namespace: what keeps DNS queries in is the socket
     * filter's UDP denial, and the name-resolution canary meets that filter instead of a missing route.
     */
    @Test
    void nameResolutionAloneIsCanariedThroughTheSocketFilter() throws Exception {
        // port 443 on every destination: the Landlock port route, in the host's network namespace
        List<EgressGrant> tcp443 = List.of(new EgressGrant(Protocol.TCP, "0.0.0.0/0", 443, 443),
                new EgressGrant(Protocol.TCP, "::/0", 443, 443));
        ExecutionSpec names = new ExecutionSpec("/bin/true", List.of(), tmp.toString(), IdentityRef.anonymous(),
                List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(tcp443)),
                        req(CapabilityDomain.NAME_RESOLUTION, new Scope.WholeDomain())), Map.of(),
                CredentialPosture.none(), new Stdio.Inherit());
        var execution = Harness.shared().start(names);
        assertEquals(new ExitDisposition.Exited(0), execution.await());
        EnforcementEvidence ev = execution.evidence();
        assertTrue(ev.records().stream().anyMatch(r -> r.kind() == EvidenceKind.DECISION
                && r.domain().equals(java.util.Optional.of(CapabilityDomain.NAME_RESOLUTION))), ev.toString());
        assertTrue(ev.supportsPreventionClaim(CapabilityDomain.NAME_RESOLUTION), ev.toString());
    }

    @Test
    void withoutCanariesNoDecisionIsClaimed() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        LandlockSeccompBackend plain = new LandlockSeccompBackend(LandlockSeccompSettings.defaults().withProbeCacheDir(Harness.cacheDir())
                .withoutCanaries());
        var execution = new Harness(plain).start(spec(out));
        assertEquals(new ExitDisposition.Exited(0), execution.await());
        EnforcementEvidence ev = execution.evidence();
        assertFalse(ev.records().stream().anyMatch(r -> r.kind() == EvidenceKind.DECISION), ev.toString());
        for (CapabilityDomain d : CANARIED) {
            assertFalse(ev.supportsPreventionClaim(d), d.token());
        }
    }
}
