package io.aasm.backend.vm.internal.runtime;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.aasm.backend.vm.internal.guest.GuestSession;
import io.aasm.ports.backend.Stdio;
import java.io.IOException;
import java.util.Arrays;

/**
 * The caller's standard streams as raw descriptors (the JVM's own 0-2, or those a resident kernel holds for
 * its client). Stdin is polled, never read blockingly: when the launch ends the pump stops without waiting
 * for (and swallowing) the caller's next input. A terminal the caller's job does not own in the foreground
 * is not read at all (reading it would stop the JVM with SIGTTIN): the program sees its stdin end.
 */
final class HostStdio {
    interface LibC extends Library {
        int poll(Pointer fds, int nfds, int timeout) throws LastErrorException;

        long read(int fd, byte[] buf, long count) throws LastErrorException;

        long write(int fd, byte[] buf, long count) throws LastErrorException;

        int isatty(int fd);

        int tcgetpgrp(int fd);

        int getpgrp();
    }

    private static final int EINTR = 4;
    private static final int EAGAIN = 11;
    private static final short POLLIN = 1;
    private static final short POLLOUT = 4;
    private static volatile LibC libc;

    private HostStdio() {
    }

    static int[] fds(Stdio stdio) {
        return stdio instanceof Stdio.Descriptors d ? new int[] {d.stdin(), d.stdout(), d.stderr()} : new int[] {0, 1, 2};
    }

    private static LibC c() {
        if (libc == null) {
            libc = Native.load("c", LibC.class);
        }
        return libc;
    }

    static GuestSession.Input input(int fd) {
        if (c().isatty(fd) == 1 && c().tcgetpgrp(fd) != c().getpgrp()) {
            return buf -> -1;
        }
        Memory pfd = new Memory(8);
        return buf -> {
            pfd.setInt(0, fd);
            pfd.setShort(4, POLLIN);
            pfd.setShort(6, (short) 0);
            try {
                if (c().poll(pfd, 1, 200) == 0) {
                    return 0;
                }
                long n = c().read(fd, buf, buf.length);
                return n == 0 ? -1 : (int) n;
            } catch (LastErrorException e) {
                if (e.getErrorCode() == EINTR || e.getErrorCode() == EAGAIN) {
                    return 0;
                }
                throw new IOException("reading stdin failed: errno " + e.getErrorCode());
            }
        };
    }

    static GuestSession.Output output(int fd) {
        Memory pfd = new Memory(8);
        return (b, off, len) -> {
            byte[] rest = Arrays.copyOfRange(b, off, off + len);
            while (rest.length > 0) {
                try {
                    long n = c().write(fd, rest, rest.length);
                    rest = Arrays.copyOfRange(rest, (int) n, rest.length);
                } catch (LastErrorException e) {
                    if (e.getErrorCode() == EAGAIN) {
                        pfd.setInt(0, fd);
                        pfd.setShort(4, POLLOUT);
                        c().poll(pfd, 1, 1000);
                    } else if (e.getErrorCode() != EINTR) {
                        throw new IOException("writing the program's output failed: errno " + e.getErrorCode());
                    }
                }
            }
        };
    }
}
