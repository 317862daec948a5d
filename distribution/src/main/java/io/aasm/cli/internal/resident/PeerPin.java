package io.aasm.cli.internal.resident;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A pidfd on a connection's peer, so that what {@code /proc/<pid>} said about it can be trusted to be
 * about that very process: while the process has not exited (a zombie has), its pid cannot be reused.
 * {@code SO_PEERPIDFD} (Linux 6.5) names the process that connected; older kernels fall back to
 * {@code pidfd_open} on the SO_PEERCRED pid, which leaves the window between {@code connect} and that
 * call open to pid reuse (documented in docs/resident.md).
 */
final class PeerPin implements AutoCloseable {
    private final int pidfd;
    private final String how;

    private PeerPin(int pidfd, String how) {
        this.pidfd = pidfd;
        this.how = how;
    }

    static PeerPin of(int socket, long pid) {
        Memory v = new Memory(4);
        IntByReference len = new IntByReference(4);
        if (Libc.C.getsockopt(socket, Libc.SOL_SOCKET, Libc.SO_PEERPIDFD, v, len) == 0 && v.getInt(0) >= 0) {
            return new PeerPin(v.getInt(0), "SO_PEERPIDFD");
        }
        if (pid > 0) {
            long fd = Libc.C.syscall(Libc.SYS_PIDFD_OPEN, pid, 0);
            if (fd >= 0) {
                return new PeerPin((int) fd, "pidfd_open");
            }
        }
        return new PeerPin(-1, "no pidfd (errno " + Native.getLastError() + ")");
    }

    /** How the peer was pinned, for the log. */
    String how() {
        return how;
    }

    /**
     * True when the pinned process is {@code pid} and has not exited: the kernel's own record of the
     * pidfd ({@code Pid:} in its fdinfo, -1 once the process is gone) and a pidfd that is not yet
     * readable (it becomes readable when the process exits).
     */
    boolean stillLiving(long pid) {
        if (pidfd < 0 || pid <= 0) {
            return false;
        }
        if (!fdinfoPid().map(p -> p == pid).orElse(false)) {
            return false;
        }
        Memory pfd = new Memory(8);
        pfd.setInt(0, pidfd);
        pfd.setShort(4, Libc.POLLIN);
        pfd.setShort(6, (short) 0);
        for (;;) {
            int rc = Libc.C.poll(pfd, 1, 0);
            if (rc < 0 && Native.getLastError() == Libc.EINTR) {
                continue;
            }
            return rc == 0;
        }
    }

    private Optional<Long> fdinfoPid() {
        try {
            for (String line : ProcText.lines(ProcText.read(Path.of("/proc/self/fdinfo/" + pidfd)))) {
                if (line.startsWith("Pid:")) {
                    return Optional.of(Long.parseLong(line.substring(4).strip()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: treated as not pinned
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        if (pidfd >= 0) {
            Libc.C.close(pidfd);
        }
    }
}
