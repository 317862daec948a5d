package io.aasm.backend.vm.internal.guest;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The canaries one launch asks the guest agent for (proto.h, CANARY_*): which domains, and the launch's nonce
 * the agent binds its report to. The agent attempts each right before execve, inside the boundary.
 */
public record CanaryPlan(Set<CapabilityDomain> domains, String nonce) {
    public CanaryPlan {
        domains = Set.copyOf(domains);
        Objects.requireNonNull(nonce);
        if (!nonce.matches("[0-9a-f]{8,64}")) {
            throw new IllegalArgumentException("a canary nonce is 8 to 64 lower-case hex digits");
        }
        for (CapabilityDomain d : domains) {
            bit(d);
        }
    }

    /** The domains the agent has a canary for. */
    public static final Set<CapabilityDomain> SUPPORTED = EnumSet.of(CapabilityDomain.FILESYSTEM_READ,
            CapabilityDomain.FILESYSTEM_WRITE, CapabilityDomain.NETWORK_EGRESS, CapabilityDomain.PROCESS_CREATION);

    static int bit(CapabilityDomain d) {
        return switch (d) {
            case FILESYSTEM_READ -> 1;
            case FILESYSTEM_WRITE -> 2;
            case NETWORK_EGRESS -> 4;
            case PROCESS_CREATION -> 8; // guest/canary.h: beyond proto.h's bits
            default -> throw new IllegalArgumentException("the guest agent has no canary for " + d.token());
        };
    }

    public int mask() {
        return domains.stream().mapToInt(CanaryPlan::bit).reduce(0, (a, b) -> a | b);
    }

    /** What the agent attempts for a domain (for evidence records). */
    public static String attempt(CapabilityDomain d) {
        return switch (d) {
            case FILESYSTEM_READ -> "listing the view's root, which no read grant covers";
            case FILESYSTEM_WRITE -> "creating a file in the view's root, which no write grant covers";
            case NETWORK_EGRESS -> "a TCP connect to 10.0.2.2:9 (the host side of a user-mode network)";
            case PROCESS_CREATION -> "fork(2), which the guest's seccomp program must answer EPERM";
            default -> "?";
        };
    }
}
