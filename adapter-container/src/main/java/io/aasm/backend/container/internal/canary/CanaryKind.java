package io.aasm.backend.container.internal.canary;

import io.aasm.ports.capability.CapabilityDomain;

/** The canaries the container's init can make (init-canary.h), each speaking for one domain. */
public enum CanaryKind {
    FS_READ(CapabilityDomain.FILESYSTEM_READ),
    FS_WRITE(CapabilityDomain.FILESYSTEM_WRITE),
    EGRESS(CapabilityDomain.NETWORK_EGRESS),
    SYSCALL(CapabilityDomain.SYSCALL),
    SIGNAL(CapabilityDomain.IPC),
    NAMES(CapabilityDomain.NAME_RESOLUTION),
    KEYRING(CapabilityDomain.CREDENTIAL),
    RLIMIT(CapabilityDomain.RESOURCE),
    PROCESS(CapabilityDomain.PROCESS_CREATION);

    private final CapabilityDomain domain;

    CanaryKind(CapabilityDomain domain) {
        this.domain = domain;
    }

    public CapabilityDomain domain() {
        return domain;
    }

    /** The kind that speaks for {@code domain} (one per domain). */
    static CanaryKind of(io.aasm.ports.capability.CapabilityDomain domain) {
        for (CanaryKind k : values()) {
            if (k.domain == domain) {
                return k;
            }
        }
        throw new IllegalArgumentException("no canary for " + domain.token());
    }
}
