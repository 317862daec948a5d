package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.backend.landlockseccomp.internal.seccomp.SyscallFilters;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.SyscallMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which domain a call denied by the launch's own seccomp program speaks for, by syscall number: the policy's
 * syscall list, the socket rules of egress (or of name resolution), the process-creation denial. Calls of the
 * hardening baseline and io_uring belong to no stated domain; they are recorded for the run only.
 *
 * @param unlisted the domain of every other denied number: the syscall allow list's, when there is one
 */
public record DeniedCalls(Map<Integer, Call> byNumber, Optional<CapabilityDomain> unlisted) {
    public DeniedCalls {
        byNumber = Map.copyOf(byNumber);
    }

    public record Call(String name, Optional<CapabilityDomain> domain) {
    }

    public static DeniedCalls none() {
        return new DeniedCalls(Map.of(), Optional.empty());
    }

    /** The call a number names, as far as this launch's program knows it. */
    public Call call(int nr) {
        Call c = byNumber.get(nr);
        return c != null ? c : new Call("syscall " + nr, unlisted);
    }

    static DeniedCalls of(SeccompConcerns sc, Function<String, Optional<Integer>> numbers) {
        Map<Integer, Call> out = new HashMap<>();
        put(out, numbers, SyscallFilters.HARDENING_BASELINE, Optional.empty());
        put(out, numbers, SyscallFilters.IO_URING, Optional.empty());
        put(out, numbers, List.of("socket", "sendto", "sendmsg", "sendmmsg", "setsockopt"), sc.socketOwner());
        if (sc.denyProcess) {
            put(out, numbers, List.of("fork", "vfork", "clone"), Optional.of(CapabilityDomain.PROCESS_CREATION));
        }
        boolean allowList = sc.mode.orElse(SyscallMode.DENY) == SyscallMode.ALLOW;
        if (sc.mode.isPresent() && !allowList) {
            put(out, numbers, sc.names, Optional.of(CapabilityDomain.SYSCALL));
        }
        return new DeniedCalls(out, allowList ? Optional.of(CapabilityDomain.SYSCALL) : Optional.empty());
    }

    private static void put(Map<Integer, Call> out, Function<String, Optional<Integer>> numbers, List<String> names,
                            Optional<CapabilityDomain> domain) {
        for (String n : names) {
            numbers.apply(n).ifPresent(nr -> out.put(nr, new Call(n, domain)));
        }
    }
}
