package io.aasm.policy.yaml.internal.rules;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Egress and name-resolution hosts: an IPv4 or IPv6 literal, a CIDR block, an RFC 1123 host name, or
 * the word {@code loopback}. Results are lower-cased so equal hosts compare equal.
 */
public final class HostRules {
    private static final Pattern IPV4 = Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9a-fA-F:.]+");
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final Pattern NUMERIC_DOTTED = Pattern.compile("[0-9.]+");

    private HostRules() {
    }

    /** Any egress host form. */
    public static Checked<String> egressHost(String raw) {
        String host = raw.toLowerCase(Locale.ROOT);
        if (host.equals("loopback")) {
            return Checked.ok(host);
        }
        int slash = host.indexOf('/');
        if (slash >= 0) {
            return cidr(host, slash);
        }
        Literal literal = address(host);
        if (literal == Literal.NOT_LITERAL) {
            return hostName(raw);
        }
        return literal.isPresentOk() ? Checked.ok(host) : ipLiteral(raw);
    }

    /** An address that a pinned host name resolves to: an IP literal only. */
    public static Checked<String> ipLiteral(String raw) {
        String host = raw.toLowerCase(Locale.ROOT);
        Literal literal = address(host);
        return switch (literal) {
            case V4, V6 -> Checked.ok(host);
            case BAD_V4 -> Checked.bad("'" + raw + "' is not a valid IPv4 address",
                    "write four numbers 0-255 without leading zeros, e.g. 93.184.216.34");
            case BAD_V6 -> Checked.bad("'" + raw + "' is not a valid IPv6 address", "write e.g. 2001:db8::1");
            case NOT_LITERAL -> Checked.bad("'" + raw + "' is not an IP address",
                    "a pinned name maps to an IPv4 or IPv6 address, e.g. 93.184.216.34");
        };
    }

    /** A host name (RFC 1123), used as a pinned name. */
    public static Checked<String> hostName(String raw) {
        String host = raw.toLowerCase(Locale.ROOT);
        if (host.startsWith("*")) {
            return Checked.bad("wildcard host '" + raw + "' is not supported", "name each host explicitly");
        }
        if (NUMERIC_DOTTED.matcher(host).matches()) {
            return Checked.bad("'" + raw + "' is not a valid IPv4 address",
                    "write four numbers 0-255 without leading zeros, e.g. 10.0.0.1");
        }
        if (host.isEmpty() || host.length() > 253) {
            return Checked.bad("'" + raw + "' is not a valid host name", "a host name has 1 to 253 characters");
        }
        for (String label : host.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return Checked.bad("'" + raw + "' is not a valid host name (RFC 1123)",
                        "use letters, digits and '-' in dot-separated labels of at most 63 characters");
            }
        }
        return Checked.ok(host);
    }

    private static Checked<String> cidr(String host, int slash) {
        String base = host.substring(0, slash);
        String bits = host.substring(slash + 1);
        Literal literal = address(base);
        int max = literal == Literal.V4 ? 32 : literal == Literal.V6 ? 128 : -1;
        if (max < 0) {
            return Checked.bad("'" + host + "' is not a valid CIDR block",
                    "write an address and a prefix, e.g. 10.0.0.0/8");
        }
        if (!bits.matches("0|[1-9][0-9]{0,2}") || Integer.parseInt(bits) > max) {
            return Checked.bad("'" + host + "' has a bad prefix length", "the prefix is 0.." + max);
        }
        byte[] addr = bytes(base);
        int prefix = Integer.parseInt(bits);
        for (int i = prefix; i < addr.length * 8; i++) {
            if ((addr[i / 8] & (0x80 >> (i % 8))) != 0) {
                return Checked.bad("'" + host + "' has host bits set after the /" + prefix + " prefix",
                        "write the network address, e.g. " + network(addr, prefix, literal) + "/" + prefix);
            }
        }
        return Checked.ok(host);
    }

    private static String network(byte[] addr, int prefix, Literal literal) {
        byte[] copy = addr.clone();
        for (int i = prefix; i < copy.length * 8; i++) {
            copy[i / 8] &= (byte) ~(0x80 >> (i % 8));
        }
        try {
            String s = InetAddress.getByAddress(copy).getHostAddress();
            return literal == Literal.V6 ? s.replaceFirst("(^|:)0(:0)+(:|$)", "::") : s;
        } catch (UnknownHostException e) {
            return "?";
        }
    }

    enum Literal {
        V4, V6, BAD_V4, BAD_V6, NOT_LITERAL;

        boolean isPresentOk() {
            return this == V4 || this == V6;
        }
    }

    static Literal address(String host) {
        if (IPV4.matcher(host).matches()) {
            for (String part : host.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return Literal.BAD_V4;
                }
            }
            return Literal.V4;
        }
        if (NUMERIC_DOTTED.matcher(host).matches()) {
            return Literal.BAD_V4;
        }
        if (host.indexOf(':') >= 0) {
            // Only hex digits, ':' and '.' reach InetAddress, so it parses a literal and never resolves a name.
            if (!IPV6_CHARS.matcher(host).matches()) {
                return Literal.BAD_V6;
            }
            try {
                return InetAddress.getByName(host) instanceof Inet6Address || host.contains("::ffff:")
                        ? Literal.V6 : Literal.BAD_V6;
            } catch (UnknownHostException e) {
                return Literal.BAD_V6;
            }
        }
        return Literal.NOT_LITERAL;
    }

    private static byte[] bytes(String literal) {
        try {
            return InetAddress.getByName(literal).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException("checked literal did not parse: " + literal, e);
        }
    }
}
