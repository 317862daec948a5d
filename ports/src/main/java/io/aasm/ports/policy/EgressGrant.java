package io.aasm.ports.policy;

import java.util.Objects;

/**
 * One permitted egress destination. {@code host} is an IP literal, a CIDR, a host name, or the word
 * {@code loopback}; ports are an inclusive range (0..65535 means any port).
 */
public record EgressGrant(Protocol protocol, String host, int portFrom, int portTo) {
    public static final String LOOPBACK = "loopback";

    public EgressGrant {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(host, "host");
        if (portFrom < 0 || portTo > 65535 || portFrom > portTo) {
            throw new IllegalArgumentException("bad port range " + portFrom + "-" + portTo);
        }
    }

    public boolean anyPort() {
        return portFrom == 0 && portTo == 65535;
    }

    public boolean loopbackOnly() {
        return LOOPBACK.equals(host);
    }
}
