package io.aasm.backend.vm.internal.guest;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the guest's canaries aim at, decided when the launch is lowered and kept apart from the {@link GuestPlan}
 * so that a plan changed afterwards (a test breaking the boundary on purpose) still meets the canaries of what
 * the launch claims: the denied call to try, the hard ceiling the plan claims, the address of the name canary's
 * datagram, and which of the calls the canaries themselves make the launch's own syscall policy refuses (a
 * canary refused by that policy would be denied by another mechanism than its domain's, so it is not asked).
 */
public record CanaryTargets(Optional<Call> syscall, Optional<GuestPlan.Rlimit> ceiling, Resolver resolver,
                            Set<String> policyRefuses) {
    /** 198.18.0.53:53, RFC 2544's benchmarking range: never a resolver, never on a link. */
    public static final Resolver UNREACHABLE_RESOLVER = new Resolver(0xC6120035, 53);
    public static final CanaryTargets NONE = new CanaryTargets(Optional.empty(), Optional.empty(),
            UNREACHABLE_RESOLVER, Set.of());

    /**
     * System calls the launch's seccomp policy denies, by name, in order of preference: the guest calls the first
     * its architecture has (mkdir exists on x86_64, not on arm64, where mkdirat does), so the host needs no table.
     */
    public record Call(java.util.List<String> names) {
        public Call {
            names = java.util.List.copyOf(names);
            if (names.isEmpty()) {
                throw new IllegalArgumentException("a syscall canary needs at least one call");
            }
        }

        public static Call of(String... names) {
            return new Call(java.util.List.of(names));
        }
    }

    /** An IPv4 address (as an unsigned 32-bit value) and a UDP port. */
    public record Resolver(int address, int port) {
        public Resolver {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("a resolver port is 1 to 65535");
            }
        }

        @Override
        public String toString() {
            return (address >>> 24) + "." + (address >>> 16 & 255) + "." + (address >>> 8 & 255) + "." + (address & 255)
                    + ":" + port;
        }
    }

    public CanaryTargets {
        Objects.requireNonNull(syscall);
        Objects.requireNonNull(ceiling);
        Objects.requireNonNull(resolver);
        policyRefuses = Set.copyOf(policyRefuses);
    }

    /** These targets with the name canary's datagram aimed elsewhere (tests: an address the guest can reach). */
    public CanaryTargets withResolver(Resolver r) {
        return new CanaryTargets(syscall, ceiling, r, policyRefuses);
    }
}
