package io.aasm.backend.vm.internal.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.CanaryPlan;
import io.aasm.backend.vm.internal.guest.CanaryTargets;
import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceRecord;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which of the new guest canaries a launch asks for: only for a stated domain whose target exists, and never one
 * whose own calls the launch's syscall policy refuses (that policy, not the domain's mechanism, would deny it).
 */
class GuestCanariesChoiceTest {
    private static final GuestPlan PLAN = new GuestPlan("/bin/true", List.of("true"), Map.of(), "/", 0, 0, List.of(),
            List.of(), List.of(), OptionalLong.empty(), OptionalLong.empty(), false, List.of(), List.of());
    private static final Optional<CanaryTargets.Call> MKDIR = Optional.of(CanaryTargets.Call.of("mkdir", "mkdirat"));
    private static final Optional<GuestPlan.Rlimit> NOFILE = Optional.of(new GuestPlan.Rlimit(7, 64, 64));

    @Test
    void eachStatedDomainWithATargetGetsItsCanary() {
        CanaryPlan c = choose(new CanaryTargets(MKDIR, NOFILE, CanaryTargets.UNREACHABLE_RESOLVER, Set.of()),
                CapabilityDomain.SYSCALL, CapabilityDomain.NAME_RESOLUTION, CapabilityDomain.CREDENTIAL,
                CapabilityDomain.RESOURCE);
        assertEquals(EnumSet.of(CapabilityDomain.SYSCALL, CapabilityDomain.NAME_RESOLUTION, CapabilityDomain.CREDENTIAL,
                CapabilityDomain.RESOURCE), c.domains());
    }

    @Test
    void noTargetNoCanary() {
        CanaryPlan c = choose(CanaryTargets.NONE, CapabilityDomain.SYSCALL, CapabilityDomain.RESOURCE,
                CapabilityDomain.CREDENTIAL);
        assertEquals(Set.of(CapabilityDomain.CREDENTIAL), c.domains());
    }

    @Test
    void aCanaryThePolicyWouldRefuseFirstIsNotAsked() {
        CanaryPlan c = choose(new CanaryTargets(MKDIR, NOFILE, CanaryTargets.UNREACHABLE_RESOLVER, Set.of("sendto",
                "connect", "setrlimit")), CapabilityDomain.SYSCALL, CapabilityDomain.NAME_RESOLUTION,
                CapabilityDomain.RESOURCE, CapabilityDomain.NETWORK_EGRESS);
        assertEquals(Set.of(CapabilityDomain.SYSCALL), c.domains());
    }

    @Test
    void aPolicyRefusingWriteGetsNoCanaryAtAll() {
        Map<CapabilityDomain, List<String>> installed = new EnumMap<>(CapabilityDomain.class);
        installed.put(CapabilityDomain.CREDENTIAL, List.of("installed"));
        installed.put(CapabilityDomain.FILESYSTEM_READ, List.of("installed"));
        assertEquals(Optional.empty(), GuestCanaries.choose(new VmLaunch(PLAN, List.of(), OptionalLong.empty(),
                installed, OptionalInt.empty(), new CanaryTargets(MKDIR, NOFILE, CanaryTargets.UNREACHABLE_RESOLVER,
                Set.of("write")))));
    }

    @Test
    void withoutVerifyALaunchGetsNoCanaryAtAll() {
        Map<CapabilityDomain, List<String>> installed = new EnumMap<>(CapabilityDomain.class);
        installed.put(CapabilityDomain.FILESYSTEM_READ, List.of("installed"));
        installed.put(CapabilityDomain.SYSCALL, List.of("installed"));
        CanaryTargets t = new CanaryTargets(MKDIR, NOFILE, CanaryTargets.UNREACHABLE_RESOLVER, Set.of());
        assertEquals(Optional.empty(), GuestCanaries.choose(new VmLaunch(PLAN, List.of(), OptionalLong.empty(),
                installed, OptionalInt.empty(), t, false)));
        assertTrue(GuestCanaries.choose(new VmLaunch(PLAN, List.of(), OptionalLong.empty(), installed,
                OptionalInt.empty(), t, true)).isPresent(), "control: the same launch under --verify has canaries");
    }

    @Test
    void aDenialUnderTheNonceIsADecisionNamingTheTargetAndTheAnswer() {
        CanaryPlan c = choose(new CanaryTargets(MKDIR, NOFILE, CanaryTargets.UNREACHABLE_RESOLVER, Set.of()),
                CapabilityDomain.SYSCALL, CapabilityDomain.NAME_RESOLUTION);
        List<EvidenceRecord> r = GuestCanaries.decisions(Optional.of(c), Map.of("canary_nonce", c.nonce(),
                "canary.syscall", "denied:EPERM", "canary.name_resolution", "denied:ENETUNREACH", "canary_us", "812"));
        assertEquals(2, r.size(), r.toString());
        assertTrue(r.stream().allMatch(x -> x.detail().endsWith("(all of this launch's canaries took 812 µs in the "
                + "guest)")), r.toString());
        assertTrue(r.stream().allMatch(x -> x.claim() == ClaimTerm.DENIED_BEFORE_EXECUTION), r.toString());
        assertTrue(r.stream().anyMatch(x -> x.detail().contains("the first of mkdir, mkdirat") && x.detail().contains(
                "answered EPERM")), r.toString());
        assertTrue(r.stream().anyMatch(x -> x.detail().contains("198.18.0.53:53") && x.detail().contains(
                "answered ENETUNREACH")), r.toString());
        // Another launch's nonce proves nothing here.
        assertEquals(List.of(), GuestCanaries.decisions(Optional.of(c), Map.of("canary_nonce", "00000000",
                "canary.syscall", "denied:EPERM")));
    }

    private static CanaryPlan choose(CanaryTargets t, CapabilityDomain... stated) {
        Map<CapabilityDomain, List<String>> installed = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : stated) {
            installed.put(d, List.of("installed"));
        }
        return GuestCanaries.choose(new VmLaunch(PLAN, List.of(), OptionalLong.empty(), installed, OptionalInt.empty(),
                t)).orElseThrow();
    }
}
