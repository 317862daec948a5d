package io.aasm.backend.container.internal.runtime;

import com.sun.jna.Native;
import io.aasm.backend.container.internal.host.LibC;

/**
 * Reads and writes on the caller's descriptors by number, through the C library: a resident kernel holds
 * its client's streams as bare descriptors, and polling lets a relay stop reading the moment the program
 * ended (a blocked Java read would take the caller's next keystroke with it).
 */
final class Descriptors {
    static final int EAGAIN = 11;
    static final int EINTR = 4;

    private Descriptors() {
    }

    /** Polls {@code fd} for {@code events} up to {@code millis}; the revents (0 on timeout, -1 on error). */
    static int poll(int fd, short events, int millis) {
        LibC.PollFd[] fds = (LibC.PollFd[]) new LibC.PollFd().toArray(1);
        fds[0].fd = fd;
        fds[0].events = events;
        int n = LibC.INSTANCE.poll(fds, 1, millis);
        if (n < 0) {
            return Native.getLastError() == EINTR ? 0 : -1;
        }
        fds[0].read();
        return n == 0 ? 0 : fds[0].revents & 0xffff;
    }

    /** Bytes read, 0 at end of file, -1 for "nothing now" (EAGAIN/EINTR), -2 on any other error. */
    static int read(int fd, byte[] buf) {
        long n = LibC.INSTANCE.read(fd, buf, buf.length);
        if (n >= 0) {
            return (int) n;
        }
        int e = Native.getLastError();
        return e == EAGAIN || e == EINTR ? -1 : -2;
    }

    /** Writes everything, waiting on a non-blocking descriptor; false when the reader is gone. */
    static boolean writeAll(int fd, byte[] b) {
        if (fd < 0) {
            return true; // detached output: discarded
        }
        int off = 0;
        while (off < b.length) {
            byte[] chunk = off == 0 ? b : java.util.Arrays.copyOfRange(b, off, b.length);
            long n = LibC.INSTANCE.write(fd, chunk, chunk.length);
            if (n > 0) {
                off += (int) n;
                continue;
            }
            int e = Native.getLastError();
            if (n < 0 && (e == EAGAIN || e == EINTR)) {
                poll(fd, LibC.POLLOUT, 1000);
                continue;
            }
            return false;
        }
        return true;
    }
}
