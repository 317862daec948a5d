package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.backend.landlockseccomp.internal.seccomp.SyscallFilters;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.SyscallMode;
import java.util.List;
import java.util.Optional;

/** Accumulates the seccomp concerns of one launch; turned into programs once every domain is lowered. */
final class SeccompConcerns {
    Optional<SyscallMode> mode = Optional.empty();
    List<String> names = List.of();
    boolean denyIoUring;
    boolean denyProcess;
    CapabilityDomain owner = CapabilityDomain.SYSCALL;
    private boolean egress;
    private boolean egressUdp = true;
    private boolean namesStated;

    /** Egress is stated; {@code udp}: a UDP grant covers every destination. */
    void egress(boolean udp) {
        egress = true;
        egressUdp &= udp;
    }

    /** Name resolution is stated: no DNS over UDP from the host's network namespace. */
    void nameResolution() {
        namesStated = true;
    }

    /** Who a denied socket call speaks for: egress when it is stated, else name resolution's UDP rule. */
    Optional<CapabilityDomain> socketOwner() {
        return egress ? Optional.of(CapabilityDomain.NETWORK_EGRESS)
                : namesStated ? Optional.of(CapabilityDomain.NAME_RESOLUTION) : Optional.empty();
    }

    /**
     * {@code ownNetwork}: the program has a network namespace of its own, whose loopback it may use for TCP
     * and UDP alike since nothing routes out of it.
     */
    SyscallFilters.Concerns concerns(boolean ownNetwork) {
        Optional<SyscallFilters.Sockets> sockets = Optional.empty();
        if (egress) {
            sockets = Optional.of(new SyscallFilters.Sockets(ownNetwork || egressUdp && !namesStated, true));
        } else if (namesStated) {
            sockets = Optional.of(new SyscallFilters.Sockets(ownNetwork, false));
        }
        return new SyscallFilters.Concerns(mode, names, sockets, denyIoUring, denyProcess);
    }
}
