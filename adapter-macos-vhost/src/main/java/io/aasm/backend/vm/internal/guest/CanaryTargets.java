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

    /** A system call the launch's seccomp policy denies, by name and by its number in the guest (x86_64). */
    public record Call(String name, int number) {
        public Call {
            Objects.requireNonNull(name);
            if (number < 0) {
                throw new IllegalArgumentException("a system call number is not negative");
            }
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
