package io.aasm.testsupport.relay;

/**
 * The hand-off protocol's fixed messages (version 1, the native adapter's PROTOCOL.md, "Hand-off"), written
 * once for the stand-ins of both sides: the relay's capability and the report it writes when a tunnel ends.
 */
public final class HandOffWire {
    /** What the relay writes before the preamble: the hand-off capability, version 1. */
    public static final byte[] CAPABILITY = {(byte) 0xFF, 'A', 'H', 1};
    /** A report: {@code 'A' 'H' 'C' 1}, bytes up and down (64-bit little-endian), one flags byte, padding. */
    public static final int REPORT_BYTES = 24;

    private HandOffWire() {
    }

    /** The capability, then the preamble: a relay's first bytes on every connection. */
    public static byte[] announced(byte[] preamble) {
        byte[] b = new byte[CAPABILITY.length + preamble.length];
        System.arraycopy(CAPABILITY, 0, b, 0, CAPABILITY.length);
        System.arraycopy(preamble, 0, b, CAPABILITY.length, preamble.length);
        return b;
    }

    public static byte[] report(long up, long down, int flags) {
        byte[] m = new byte[REPORT_BYTES];
        m[0] = 'A';
        m[1] = 'H';
        m[2] = 'C';
        m[3] = 1;
        for (int i = 0; i < 8; i++) {
            m[4 + i] = (byte) (up >>> (8 * i));
            m[12 + i] = (byte) (down >>> (8 * i));
        }
        m[20] = (byte) flags;
        return m;
    }

    /** Bytes up, from a report. */
    public static long up(byte[] report) {
        return le(report, 4);
    }

    /** Bytes down, from a report. */
    public static long down(byte[] report) {
        return le(report, 12);
    }

    public static int flags(byte[] report) {
        return report[20];
    }

    private static long le(byte[] m, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (m[at + i] & 0xff);
        }
        return v;
    }
}
