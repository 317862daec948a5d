package io.aasm.transport.proxy.internal.admission;

import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import java.net.InetAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * One TCP egress grant in the form the proxy matches: a host name (exact), an address block, or the word
 * {@code loopback}; a port range. {@code written} is the grant as the policy spells it, for decision records.
 */
public record Rule(Kind kind, String name, Optional<Cidr> block, int portFrom, int portTo, String written) {
    public enum Kind { NAME, ADDRESS, LOOPBACK }

    private static final Cidr LOOPBACK_V4 = Cidr.parse("127.0.0.0/8").orElseThrow();
    private static final Cidr LOOPBACK_V6 = Cidr.parse("::1/128").orElseThrow();

    public Rule {
        Objects.requireNonNull(kind);
        Objects.requireNonNull(name);
        Objects.requireNonNull(block);
        Objects.requireNonNull(written);
    }

    /** The rule of a grant, or empty when the proxy can never admit through it (UDP, or an unreadable host). */
    public static Optional<Rule> of(EgressGrant g) {
        if (g.protocol() != Protocol.TCP) {
            return Optional.empty();
        }
        String w = written(g);
        if (g.loopbackOnly()) {
            return Optional.of(new Rule(Kind.LOOPBACK, "", Optional.empty(), g.portFrom(), g.portTo(), w));
        }
        Optional<Cidr> block = Cidr.parse(g.host());
        if (block.isPresent()) {
            return Optional.of(new Rule(Kind.ADDRESS, "", block, g.portFrom(), g.portTo(), w));
        }
        Destination d = Destination.parse(g.host());
        return d instanceof Destination.Name n
                ? Optional.of(new Rule(Kind.NAME, n.name(), Optional.empty(), g.portFrom(), g.portTo(), w))
                : Optional.empty();
    }

    public boolean port(int p) {
        return portFrom <= p && p <= portTo;
    }

    public boolean names(String host) {
        return kind == Kind.NAME && name.equals(host);
    }

    public boolean covers(InetAddress a) {
        return switch (kind) {
            case NAME -> false;
            case LOOPBACK -> LOOPBACK_V4.contains(a) || LOOPBACK_V6.contains(a);
            case ADDRESS -> block.orElseThrow().contains(a);
        };
    }

    /** Whether this rule names an address it covers on purpose: every rule but an all-addresses block. */
    public boolean explicit() {
        return kind != Kind.ADDRESS || !block.orElseThrow().everything();
    }

    private static String written(EgressGrant g) {
        String ports = g.anyPort() ? "" : g.portFrom() == g.portTo() ? ", port: " + g.portFrom()
                : ", ports: \"" + g.portFrom() + "-" + g.portTo() + "\"";
        return "{host: " + g.host() + ports + "}";
    }
}
