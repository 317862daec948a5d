package io.aasm.transport.proxy.internal.handoff;

import com.sun.jna.Memory;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Reads the relay's end-of-tunnel report from the proxy's end of the socket pair it handed over: "AHC" 1, u64
 * bytes to the destination, u64 bytes to the program, u32 flags (1: ended abnormally), little-endian. The
 * socket pair was made by the proxy and passed only to the relay, so only the relay can write it.
 */
final class Report {
    static final int SIZE = 24;
    private static final int POLL_MILLIS = 250;

    private Report() {
    }

    /** The counts, or empty when the relay ended without a report or the session is closing. */
    static Optional<HandOff.Counts> await(int fd, BooleanSupplier closing) {
        byte[] m = new byte[SIZE];
        int have = 0;
        Memory pfd = new Memory(8);
        while (have < SIZE) {
            pfd.setInt(0, fd);
            pfd.setShort(4, NativeSockets.POLLIN);
            pfd.setShort(6, (short) 0);
            int ready = NativeSockets.INSTANCE.poll(pfd, 1, POLL_MILLIS);
            if (ready <= 0) {
                // a report already written is read first; the session's end only stops the waiting
                if (closing.getAsBoolean()) {
                    return Optional.empty();
                }
                continue; // timeout, or EINTR
            }
            byte[] part = new byte[SIZE - have];
            long n = NativeSockets.INSTANCE.read(fd, part, part.length);
            if (n <= 0) {
                return Optional.empty();
            }
            System.arraycopy(part, 0, m, have, (int) n);
            have += (int) n;
        }
        if (m[0] != 'A' || m[1] != 'H' || m[2] != 'C' || m[3] != 1) {
            return Optional.empty();
        }
        return Optional.of(new HandOff.Counts(le(m, 4), le(m, 12), (m[20] & 1) != 0));
    }

    private static long le(byte[] m, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (m[at + i] & 0xff);
        }
        return v;
    }
}
