package io.aasm.backend.container.internal.runtime;

import com.sun.jna.NativeLong;
import io.aasm.backend.container.internal.host.LibC;
import java.util.Optional;

/**
 * The caller's terminal while a container's terminal is relayed to it (as {@code ssh -t} and
 * aasm-native's launcher do): when the caller's stdin is a terminal this launch may control, the container
 * gets a pseudo-terminal of its own (never the caller's), and the caller's terminal goes to raw mode so
 * line editing, Ctrl-C and Ctrl-Z are the program's; the modes are restored when the launch ends.
 */
public final class TerminalMode {
    private final int fd;
    private final byte[] saved;

    private TerminalMode(int fd, byte[] saved) {
        this.fd = fd;
        this.saved = saved;
    }

    /**
     * A terminal stdin, unless it belongs to this process's own session without being in its foreground
     * (a background job must not take the terminal over); other sessions' terminals (a resident kernel's
     * client) are the client's to give.
     */
    public static boolean usable(int in) {
        LibC c = LibC.INSTANCE;
        if (c.isatty(in) != 1) {
            return false;
        }
        int[] sid = new int[1];
        if (c.ioctl(in, new NativeLong(LibC.TIOCGSID), sid) == 0 && sid[0] == c.getsid(0)) {
            return c.tcgetpgrp(in) == c.getpgrp();
        }
        return true;
    }

    /** Raw mode on {@code in}; empty when its modes cannot be read or set. */
    static Optional<TerminalMode> raw(int in) {
        byte[] t = new byte[LibC.TERMIOS_SIZE];
        if (LibC.INSTANCE.tcgetattr(in, t) != 0) {
            return Optional.empty();
        }
        byte[] raw = t.clone();
        LibC.INSTANCE.cfmakeraw(raw);
        if (LibC.INSTANCE.tcsetattr(in, LibC.TCSANOW, raw) != 0) {
            return Optional.empty();
        }
        return Optional.of(new TerminalMode(in, t));
    }

    /** Rows and columns of the caller's terminal (its stdout's, else stdin's). */
    public static Optional<int[]> size(int out, int in) {
        byte[] ws = new byte[8];
        for (int fd : new int[] {out, in}) {
            if (LibC.INSTANCE.ioctl(fd, new NativeLong(LibC.TIOCGWINSZ), ws) == 0) {
                int rows = (ws[0] & 0xff) | (ws[1] & 0xff) << 8;
                int cols = (ws[2] & 0xff) | (ws[3] & 0xff) << 8;
                if (rows > 0 && cols > 0) {
                    return Optional.of(new int[] {rows, cols});
                }
            }
        }
        return Optional.empty();
    }

    void restore() {
        LibC.INSTANCE.tcsetattr(fd, LibC.TCSANOW, saved);
    }
}
