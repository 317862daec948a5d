package io.aasm.ports.capability;

/** The nine capability domains, in the fixed order every report uses. */
public enum CapabilityDomain implements Token {
    FILESYSTEM_READ("filesystem_read"),
    FILESYSTEM_WRITE("filesystem_write"),
    NETWORK_EGRESS("network_egress"),
    NAME_RESOLUTION("name_resolution"),
    SYSCALL("syscall"),
    PROCESS_CREATION("process_creation"),
    IPC("ipc"),
    CREDENTIAL("credential"),
    RESOURCE("resource");

    private final String token;

    CapabilityDomain(String token) {
        this.token = token;
    }

    @Override
    public String token() {
        return token;
    }

    /** Parses a wire token; empty when the token names no domain. */
    public static java.util.Optional<CapabilityDomain> fromToken(String token) {
        for (CapabilityDomain d : values()) {
            if (d.token.equals(token)) {
                return java.util.Optional.of(d);
            }
        }
        return java.util.Optional.empty();
    }
}
