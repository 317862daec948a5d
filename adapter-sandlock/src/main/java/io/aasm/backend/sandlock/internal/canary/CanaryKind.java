package io.aasm.backend.sandlock.internal.canary;

import io.aasm.ports.capability.CapabilityDomain;

/** The canaries the shim can make (canary.c), each speaking for one domain. */
public enum CanaryKind {
    FS_READ(CapabilityDomain.FILESYSTEM_READ),
    FS_WRITE(CapabilityDomain.FILESYSTEM_WRITE),
    EGRESS(CapabilityDomain.NETWORK_EGRESS),
    SYSCALL(CapabilityDomain.SYSCALL),
    PROCESS(CapabilityDomain.PROCESS_CREATION),
    SIGNAL(CapabilityDomain.IPC);

    private final CapabilityDomain domain;

    CanaryKind(CapabilityDomain domain) {
        this.domain = domain;
    }

    public CapabilityDomain domain() {
        return domain;
    }

    /** The kind whose shim word (the domain's token) is {@code token}, if any. */
    static java.util.Optional<CanaryKind> ofToken(String token) {
        for (CanaryKind k : values()) {
            if (k.domain.token().equals(token)) {
                return java.util.Optional.of(k);
            }
        }
        return java.util.Optional.empty();
    }
}
