package io.aasm.transport.proxy.internal.admission;

import java.net.InetAddress;
import java.util.Locale;
import java.util.Objects;

/**
 * A destination as the program asked for it, classified without any lookup: an IP literal, a host name
 * (RFC 1123, case folded, one trailing dot dropped), or text that is neither. Numeric text that is not a strict
 * literal ({@code 127.1}, {@code 2130706433}) is malformed rather than a name, so it is never resolved.
 */
public sealed interface Destination {
    record Address(InetAddress address) implements Destination {
        public Address {
            Objects.requireNonNull(address);
        }
    }

    record Name(String name) implements Destination {
        public Name {
            Objects.requireNonNull(name);
        }
    }

    record Malformed(String why) implements Destination {
        public Malformed {
            Objects.requireNonNull(why);
        }
    }

    static Destination parse(String asked) {
        String h = asked.strip();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        h = h.toLowerCase(Locale.ROOT);
        if (h.endsWith(".") && !h.endsWith("..")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.isEmpty()) {
            return new Malformed("empty host");
        }
        var literal = Literals.parse(h);
        if (literal.isPresent()) {
            return new Address(literal.get());
        }
        if (h.indexOf(':') >= 0) {
            return new Malformed("not an IPv6 address");
        }
        if (h.length() > 253) {
            return new Malformed("host name longer than 253 characters");
        }
        String[] labels = h.split("\\.", -1);
        for (String l : labels) {
            if (l.isEmpty() || l.length() > 63 || l.startsWith("-") || l.endsWith("-")
                    || !l.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return new Malformed("not a host name (RFC 1123)");
            }
        }
        if (labels[labels.length - 1].chars().allMatch(c -> c >= '0' && c <= '9')) {
            return new Malformed("numeric host that is not a dotted-quad IPv4 address");
        }
        return new Name(h);
    }
}
