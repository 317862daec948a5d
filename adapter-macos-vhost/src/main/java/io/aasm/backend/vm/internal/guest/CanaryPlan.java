package io.aasm.backend.vm.internal.guest;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The canaries one launch asks the guest agent for (proto.h, CANARY_*): which domains, the launch's nonce the
 * agent binds its report to, and what the canaries aim at. The agent attempts each right before execve, inside
 * the boundary.
 */
public record CanaryPlan(Set<CapabilityDomain> domains, String nonce, CanaryTargets targets) {
    public CanaryPlan {
        domains = Set.copyOf(domains);
        Objects.requireNonNull(nonce);
        Objects.requireNonNull(targets);
        if (!nonce.matches("[0-9a-f]{8,64}")) {
            throw new IllegalArgumentException("a canary nonce is 8 to 64 lower-case hex digits");
        }
        for (CapabilityDomain d : domains) {
            bit(d);
        }
        if (domains.contains(CapabilityDomain.SYSCALL) && targets.syscall().isEmpty()) {
            throw new IllegalArgumentException("the syscall canary needs a call the policy denies");
        }
        if (domains.contains(CapabilityDomain.RESOURCE) && targets.ceiling().isEmpty()) {
            throw new IllegalArgumentException("the resource canary needs the ceiling the plan claims");
        }
    }

    public CanaryPlan(Set<CapabilityDomain> domains, String nonce) {
        this(domains, nonce, CanaryTargets.NONE);
    }

    /** The domains the agent has a canary for. */
    public static final Set<CapabilityDomain> SUPPORTED = EnumSet.of(CapabilityDomain.FILESYSTEM_READ,
            CapabilityDomain.FILESYSTEM_WRITE, CapabilityDomain.NETWORK_EGRESS, CapabilityDomain.PROCESS_CREATION,
            CapabilityDomain.SYSCALL, CapabilityDomain.NAME_RESOLUTION, CapabilityDomain.CREDENTIAL,
            CapabilityDomain.RESOURCE);

    static int bit(CapabilityDomain d) {
        return switch (d) {
            case FILESYSTEM_READ -> 1;
            case FILESYSTEM_WRITE -> 2;
            case NETWORK_EGRESS -> 4;
            case PROCESS_CREATION -> 8;
            case SYSCALL -> 16;
            case NAME_RESOLUTION -> 32;
            case CREDENTIAL -> 64;
            case RESOURCE -> 128;
            default -> throw new IllegalArgumentException("the guest agent has no canary for " + d.token());
        };
    }

    public int mask() {
        return domains.stream().mapToInt(CanaryPlan::bit).reduce(0, (a, b) -> a | b);
    }

    /** What the agent attempts for a domain (for evidence records). */
    public String attempt(CapabilityDomain d) {
        return switch (d) {
            case FILESYSTEM_READ -> "listing the view's root, which no read grant covers";
            case FILESYSTEM_WRITE -> "creating a file in the view's root, which no write grant covers";
            case NETWORK_EGRESS -> "a TCP connect to 10.0.2.2:9 (the host side of a user-mode network)";
            case PROCESS_CREATION -> "fork(2), which the guest's seccomp program must answer EPERM";
            case SYSCALL -> targets.syscall().map(c -> "the first of " + String.join(", ", c.names()) + " the guest's"
                    + " architecture has, every argument -1, which the guest's seccomp policy must answer EPERM")
                    .orElse("?");
            case NAME_RESOLUTION -> "a DNS query datagram to " + targets.resolver() + ", which the guest must find no"
                    + " route for (no network device: ENETUNREACH)";
            case CREDENTIAL -> "keyctl(KEYCTL_GET_KEYRING_ID) on the user keyring, which the guest's baseline seccomp"
                    + " program must answer EPERM";
            case RESOURCE -> targets.ceiling().map(c -> "raising the hard limit of rlimit " + c.resource() + " ("
                    + c.hard() + ") by one, which the guest kernel must refuse without CAP_SYS_RESOURCE (EPERM)")
                    .orElse("?");
            default -> "?";
        };
    }
}
