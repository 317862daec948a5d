package io.aasm.backend.vm.internal.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.vm.internal.guest.CanaryTargets;
import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the guest canaries aim at, from the launch's syscall policy and rlimits (names only: the guest numbers them). */
class CanaryCallsTest {
    @Test
    void aDenyListGivesItsHarmlessCallsInTheListsOrder() {
        CanaryTargets t = targets(new Scope.Syscalls(SyscallMode.DENY, List.of("reboot", "mkdirat", "mkdir")));
        // mkdir first where the guest has it (x86_64), mkdirat where it does not (arm64)
        assertEquals(Optional.of(CanaryTargets.Call.of("mkdir", "mkdirat")), t.syscall());
        assertEquals(Set.of(), t.policyRefuses());
    }

    @Test
    void aDenyListOfOnlyDangerousCallsHasNoSyscallCanary() {
        // reboot with -1 arguments could do something: it is never a canary (and needs a capability anyway).
        assertEquals(Optional.empty(), targets(new Scope.Syscalls(SyscallMode.DENY, List.of("reboot"))).syscall());
    }

    @Test
    void anAllowListGivesACallItLeavesOutAndNamesTheCanariesOwnCallsItRefuses() {
        CanaryTargets t = targets(new Scope.Syscalls(SyscallMode.ALLOW, List.of("write", "mkdir", "socket")));
        assertEquals("mkdirat", t.syscall().orElseThrow().names().get(0));
        assertEquals(CanaryCalls.CANDIDATES, t.syscall().orElseThrow().names().size());
        // prlimit64 is a start-up call every allow list keeps; connect and sendto are left out.
        assertEquals(Set.of("connect", "sendto", "getrlimit", "setrlimit"), t.policyRefuses());
        assertEquals(Set.of("socket", "connect", "sendto", "getrlimit", "setrlimit", "write"), targets(
                new Scope.Syscalls(SyscallMode.ALLOW, List.of("mkdir"))).policyRefuses());
    }

    @Test
    void theCeilingIsTheFirstRlimitAndTheResolverNeverARealOne() {
        CanaryTargets t = CanaryCalls.targets(Optional.empty(), List.of(new GuestPlan.Rlimit(0, 5, 5),
                new GuestPlan.Rlimit(7, 64, 64)));
        assertEquals(Optional.of(new GuestPlan.Rlimit(0, 5, 5)), t.ceiling());
        assertEquals(Optional.empty(), t.syscall());
        assertEquals("198.18.0.53:53", t.resolver().toString());
        assertTrue(t.policyRefuses().isEmpty());
    }

    private static CanaryTargets targets(Scope.Syscalls s) {
        return CanaryCalls.targets(Optional.of(s), List.of());
    }
}
