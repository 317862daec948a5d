package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The boundary tested from inside before the program runs: one forbidden attempt per domain the plan
 * prevents, made by a child of the launcher inside the same boundary (PROTOCOL.md "Canaries"). A kind
 * that is not denied refuses the launch; the denied ones become per-launch decision evidence.
 *
 * @param syscall the name and number the SYSCALL kind calls (every argument invalid); empty without it
 * @param grantedTcpPorts ports the program may reach: the EGRESS canary's listener must use another one
 */
public record Canaries(Set<Kind> kinds, Optional<Syscall> syscall, List<Integer> grantedTcpPorts) {
    public Canaries {
        kinds = Set.copyOf(kinds);
        grantedTcpPorts = List.copyOf(grantedTcpPorts);
        if (kinds.contains(Kind.SYSCALL) != syscall.isPresent()) {
            throw new IllegalArgumentException("the syscall kind and its syscall go together");
        }
    }

    public record Syscall(String name, int number) {
    }

    /** The kinds, their wire bits and the domain each one speaks for. */
    public enum Kind {
        FS_READ(1, CapabilityDomain.FILESYSTEM_READ),
        FS_WRITE(2, CapabilityDomain.FILESYSTEM_WRITE),
        EGRESS(4, CapabilityDomain.NETWORK_EGRESS),
        SYSCALL(8, CapabilityDomain.SYSCALL),
        PROCESS(16, CapabilityDomain.PROCESS_CREATION),
        SIGNAL(32, CapabilityDomain.IPC),
        /** Raising a hard rlimit the plan lowered (the launcher takes the value from the plan's RLIMIT records). */
        RESOURCE(64, CapabilityDomain.RESOURCE),
        /** A DNS datagram to a resolver address outside the host (denied socket, or no route out). */
        NAMES(128, CapabilityDomain.NAME_RESOLUTION),
        /** keyctl on the caller's user keyring, which no namespace hides (the baseline filter denies it). */
        KEYRING(256, CapabilityDomain.CREDENTIAL);

        private final int bit;
        private final CapabilityDomain domain;

        Kind(int bit, CapabilityDomain domain) {
            this.bit = bit;
            this.domain = domain;
        }

        public int bit() {
            return bit;
        }

        public CapabilityDomain domain() {
            return domain;
        }
    }

    public int mask() {
        return kinds.stream().mapToInt(Kind::bit).reduce(0, (a, b) -> a | b);
    }
}
