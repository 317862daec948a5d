package io.aasm.transport.proxy.internal.admission;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Addresses a granted name must not silently lead to: loopback, private, link-local, carrier-grade NAT,
 * unique-local, unspecified, multicast, broadcast, cloud metadata services, and addresses of this host. IPv6
 * forms that carry an IPv4 address (NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}, IPv4-compatible
 * {@code ::/96}) are judged by the address they carry; Teredo ({@code 2001::/32}) hides it, so it is special.
 */
public final class SpecialAddresses {
    private record Block(Cidr cidr, String kind) {
    }

    private static final List<Block> BLOCKS = List.of(
            block("169.254.169.254/32", "cloud metadata"), block("169.254.170.2/32", "cloud metadata"),
            block("168.63.129.16/32", "cloud metadata"), block("100.100.100.200/32", "cloud metadata"),
            block("fd00:ec2::254/128", "cloud metadata"),
            block("0.0.0.0/8", "unspecified"), block("10.0.0.0/8", "private"), block("100.64.0.0/10", "carrier-grade NAT"),
            block("127.0.0.0/8", "loopback"), block("169.254.0.0/16", "link-local"), block("172.16.0.0/12", "private"),
            block("192.0.0.0/24", "IETF protocol assignment"), block("192.168.0.0/16", "private"),
            block("198.18.0.0/15", "benchmarking"), block("224.0.0.0/4", "multicast"), block("240.0.0.0/4", "reserved"),
            block("::/128", "unspecified"), block("::1/128", "loopback"), block("fc00::/7", "unique-local"),
            block("fe80::/10", "link-local"), block("fec0::/10", "site-local"), block("ff00::/8", "multicast"),
            block("2001::/32", "Teredo"));

    private static final Cidr NAT64 = Cidr.parse("64:ff9b::/96").orElseThrow();
    private static final Cidr SIX_TO_FOUR = Cidr.parse("2002::/16").orElseThrow();
    private static final Cidr COMPATIBLE = Cidr.parse("::/96").orElseThrow();

    private final Predicate<InetAddress> ownAddress;

    public SpecialAddresses(Predicate<InetAddress> ownAddress) {
        this.ownAddress = ownAddress;
    }

    /** Addresses of this host's interfaces count as special: reaching one reaches this host's services. */
    public static SpecialAddresses ofThisHost() {
        return new SpecialAddresses(a -> {
            try {
                return NetworkInterface.getByInetAddress(a) != null;
            } catch (SocketException e) {
                return true; // cannot tell: treat it as this host's
            }
        });
    }

    /** The kind of special-purpose address, or empty for an ordinary public one. */
    public Optional<String> kind(InetAddress a) {
        Optional<InetAddress> carried = carried(a);
        if (carried.isPresent()) {
            return kind(carried.get()).map(k -> k + " (carried in " + a.getHostAddress() + ")");
        }
        for (Block b : BLOCKS) {
            if (b.cidr().contains(a)) {
                return Optional.of(b.kind());
            }
        }
        if (a.getAddress().length == 4 && a.getHostAddress().equals("255.255.255.255")) {
            return Optional.of("broadcast");
        }
        return ownAddress.test(a) ? Optional.of("this host's own") : Optional.empty();
    }

    private static Optional<InetAddress> carried(InetAddress a) {
        if (!(a instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] b = a.getAddress();
        byte[] v4 = null;
        if (NAT64.contains(a) || (COMPATIBLE.contains(a) && !isZeroOrOne(b))) {
            v4 = java.util.Arrays.copyOfRange(b, 12, 16);
        } else if (SIX_TO_FOUR.contains(a)) {
            v4 = java.util.Arrays.copyOfRange(b, 2, 6);
        }
        if (v4 == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(v4));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static boolean isZeroOrOne(byte[] b) {
        for (int i = 0; i < 15; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[15] == 0 || b[15] == 1;
    }

    private static Block block(String cidr, String kind) {
        return new Block(Cidr.parse(cidr).orElseThrow(), kind);
    }
}
