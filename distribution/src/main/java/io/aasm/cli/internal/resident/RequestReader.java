package io.aasm.cli.internal.resident;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import io.aasm.cli.internal.wire.ByteSource;
import io.aasm.cli.internal.wire.FrameException;
import java.io.IOException;

/**
 * Reads a connection's request against one deadline, counted from accept: a client that sends a head
 * and then nothing, or one byte at a time, is dropped when the deadline passes, whatever it announced.
 * Reads go through one native buffer per connection, so a peer that trickles bytes costs neither an
 * allocation nor a copy of the whole payload per byte.
 */
final class RequestReader implements ByteSource {
    private static final int CHUNK = 16 << 10;

    private final int fd;
    private final long deadlineNanos;
    private final int timeoutMs;
    private final Memory chunk = new Memory(CHUNK);

    RequestReader(int fd, long acceptedNanos, int timeoutMs) {
        this.fd = fd;
        this.timeoutMs = timeoutMs;
        this.deadlineNanos = acceptedNanos + timeoutMs * 1_000_000L;
    }

    /** Waits for the first byte (the one the descriptors ride on) within the deadline; then reads it. */
    UnixSockets.Received first(int maxFds) throws IOException, FrameException {
        awaitReadable();
        return UnixSockets.receiveFirst(fd, maxFds);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            awaitReadable();
        } catch (FrameException e) {
            throw new Late(e);
        }
        for (;;) {
            long n = Libc.C.read(fd, chunk, Math.min(len, CHUNK));
            if (n < 0 && Native.getLastError() == Libc.EINTR) {
                continue;
            }
            if (n <= 0) {
                return -1;
            }
            chunk.read(0, b, off, (int) n);
            return (int) n;
        }
    }

    private void awaitReadable() throws FrameException {
        Memory pfd = new Memory(8);
        pfd.setInt(0, fd);
        pfd.setShort(4, Libc.POLLIN);
        for (;;) {
            long left = (deadlineNanos - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw new FrameException("timeout", "no complete request within " + timeoutMs
                        + " ms (aasm.resident.request.timeout.ms)");
            }
            pfd.setShort(6, (short) 0);
            int rc = Libc.C.poll(pfd, 1, (int) Math.min(left, Integer.MAX_VALUE));
            if (rc > 0) {
                return; // readable, or hung up: the read says which
            }
            if (rc < 0 && Native.getLastError() != Libc.EINTR) {
                return; // let the read report the error as the end of the stream
            }
        }
    }

    /** The deadline passed in the middle of a frame: carried through {@link ByteSource}'s IOException. */
    static final class Late extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient FrameException frame;

        Late(FrameException frame) {
            super(frame.getMessage(), null);
            this.frame = frame;
        }

        FrameException frame() {
            return frame;
        }
    }
}
