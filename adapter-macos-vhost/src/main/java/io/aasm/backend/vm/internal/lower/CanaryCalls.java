package io.aasm.backend.vm.internal.lower;

import io.aasm.backend.vm.internal.guest.CanaryTargets;
import io.aasm.backend.vm.internal.guest.GuestPlan;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import io.aasm.support.canary.HarmlessCalls;
import java.util.List;
import java.util.Optional;

/**
 * What a launch's guest canaries aim at ({@link CanaryTargets}), from its syscall policy and its rlimits. The
 * syscall canary calls a denied call with every argument -1; only calls that then change nothing and need no
 * capability qualify (the native backend's list, for the same reason), so only the filter can answer EPERM.
 */
final class CanaryCalls {
    /**
     * The calls the egress, name and resource canaries make, which a syscall policy could refuse first, and
     * write, which carries every canary's report to the agent.
     */
    static final List<String> CANARIES_MAKE = List.of("socket", "connect", "sendto", "prlimit64", "getrlimit",
            "setrlimit", "write");

    private CanaryCalls() {
    }

    /** Candidates per launch: enough that some exists on any architecture, few enough to keep the record small. */
    static final int CANDIDATES = 8;

    /** The syscall canary's candidates are the harmless calls the policy refuses; the guest tries the first it has. */
    static CanaryTargets targets(Optional<Scope.Syscalls> policy, List<GuestPlan.Rlimit> rlimits) {
        Optional<CanaryTargets.Call> call = policy.map(p -> HarmlessCalls.WHEN_INVALID.stream()
                .filter(n -> refuses(p, n)).limit(CANDIDATES).toList()).filter(l -> !l.isEmpty())
                .map(CanaryTargets.Call::new);
        List<String> refused = policy.map(p -> CANARIES_MAKE.stream().filter(n -> refuses(p, n)).toList())
                .orElse(List.of());
        return new CanaryTargets(call, rlimits.stream().findFirst(), CanaryTargets.UNREACHABLE_RESOLVER,
                java.util.Set.copyOf(refused));
    }

    /** Whether the policy's own program answers this call EPERM (allow lists always allow the start-up calls). */
    static boolean refuses(Scope.Syscalls policy, String name) {
        return policy.mode() == SyscallMode.DENY ? policy.names().contains(name)
                : !policy.names().contains(name) && !SeccompPrograms.STARTUP.contains(name);
    }
}
