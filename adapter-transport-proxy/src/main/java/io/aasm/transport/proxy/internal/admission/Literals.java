package io.aasm.transport.proxy.internal.admission;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Strict IP literals, parsed here so that no text ever reaches a resolver by accident: IPv4 only as four
 * decimal parts without leading zeros ({@code 127.1}, {@code 0x7f000001} and {@code 2130706433} are not
 * literals), IPv6 in the RFC 4291 text forms (with {@code ::} and an IPv4 tail, no zone). An IPv4-mapped IPv6
 * address comes back as the IPv4 address it carries, so every rule sees one form.
 */
public final class Literals {
    private Literals() {
    }

    public static Optional<InetAddress> parse(String text) {
        byte[] b = text.indexOf(':') >= 0 ? v6(text) : v4(text);
        if (b == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(b)); // a mapped 16-byte address becomes an Inet4Address
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    static byte[] v4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] out = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || (p.length() > 1 && p.charAt(0) == '0') || !digits(p)) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            out[i] = (byte) v;
        }
        return out;
    }

    static byte[] v6(String s) {
        if (s.isEmpty() || s.length() > 45 || s.indexOf('%') >= 0) {
            return null;
        }
        byte[] tail = null;
        int lastColon = s.lastIndexOf(':');
        if (s.indexOf('.') >= 0) {
            tail = v4(s.substring(lastColon + 1));
            if (tail == null) {
                return null;
            }
            s = s.substring(0, lastColon + 1) + "0:0"; // placeholder groups, overwritten below
        }
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        String head = gap >= 0 ? s.substring(0, gap) : s;
        String rest = gap >= 0 ? s.substring(gap + 2) : "";
        int[] h = groups(head);
        int[] r = groups(rest);
        if (h == null || r == null || h.length + r.length > 8 || (gap < 0 && h.length != 8)
                || (gap >= 0 && h.length + r.length > 7)) {
            return null;
        }
        byte[] out = new byte[16];
        for (int i = 0; i < h.length; i++) {
            out[2 * i] = (byte) (h[i] >> 8);
            out[2 * i + 1] = (byte) h[i];
        }
        for (int i = 0; i < r.length; i++) {
            int at = 8 - r.length + i;
            out[2 * at] = (byte) (r[i] >> 8);
            out[2 * at + 1] = (byte) r[i];
        }
        if (tail != null) {
            System.arraycopy(tail, 0, out, 12, 4);
        }
        return out;
    }

    private static int[] groups(String s) {
        if (s.isEmpty()) {
            return new int[0];
        }
        String[] parts = s.split(":", -1);
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 4 || !p.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                return null;
            }
            out[i] = Integer.parseInt(p, 16);
        }
        return out;
    }

    private static boolean digits(String s) {
        return s.chars().allMatch(c -> c >= '0' && c <= '9');
    }
}
