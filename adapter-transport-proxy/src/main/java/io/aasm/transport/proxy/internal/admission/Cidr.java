package io.aasm.transport.proxy.internal.admission;

import java.net.InetAddress;
import java.util.Optional;

/** An address block ({@code 10.0.0.0/8}, {@code 2001:db8::/32}); a bare literal is a block of one address. */
public record Cidr(byte[] network, int prefix) {
    public Cidr {
        network = network.clone();
        if (prefix < 0 || prefix > network.length * 8) {
            throw new IllegalArgumentException("prefix " + prefix);
        }
    }

    public static Optional<Cidr> parse(String text) {
        int slash = text.indexOf('/');
        String addr = slash < 0 ? text : text.substring(0, slash);
        Optional<InetAddress> a = Literals.parse(addr);
        if (a.isEmpty()) {
            return Optional.empty();
        }
        byte[] bytes = a.get().getAddress();
        int prefix = bytes.length * 8;
        if (slash >= 0) {
            String p = text.substring(slash + 1);
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return Optional.empty();
            }
            prefix = Integer.parseInt(p);
            if (prefix > bytes.length * 8) {
                return Optional.empty();
            }
        }
        return Optional.of(new Cidr(bytes, prefix));
    }

    public boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int bits = prefix % 8;
        if (bits == 0) {
            return true;
        }
        int mask = (0xff << (8 - bits)) & 0xff;
        return (a[full] & mask) == (network[full] & mask);
    }

    /** {@code 0.0.0.0/0} or {@code ::/0}: every address of a family, which names no special one explicitly. */
    public boolean everything() {
        return prefix == 0;
    }
}
