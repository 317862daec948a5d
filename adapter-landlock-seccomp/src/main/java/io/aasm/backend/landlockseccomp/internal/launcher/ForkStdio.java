package io.aasm.backend.landlockseccomp.internal.launcher;

import com.sun.jna.Native;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.util.Optional;

/**
 * The three descriptors a forked launcher gets as 0, 1 and 2, opened here as {@link ProcessBuilder} would open
 * them for a fresh one: {@code INHERIT} is this JVM's own, a file is opened by this JVM (read; write, truncating;
 * append). A pipe to this JVM has no such form: those launches start the launcher directly.
 */
final class ForkStdio implements AutoCloseable {
    private static final ZygoteCalls C = ZygoteCalls.INSTANCE;
    final int[] fds = {-1, -1, -1};
    private final boolean[] opened = new boolean[3];

    private ForkStdio() {
    }

    /** Whether every redirect has a descriptor form (no pipe), checked before anything is made for a request. */
    static boolean possible(LaunchOptions options) {
        return options.stdin().type() != Redirect.Type.PIPE && options.stdout().type() != Redirect.Type.PIPE
                && options.stderr().type() != Redirect.Type.PIPE;
    }

    /** Empty when a redirect has no descriptor form (a pipe). */
    static Optional<ForkStdio> of(LaunchOptions options) throws IOException {
        Redirect[] r = {options.stdin(), options.stdout(), options.stderr()};
        for (Redirect x : r) {
            if (x.type() == Redirect.Type.PIPE) {
                return Optional.empty();
            }
        }
        ForkStdio s = new ForkStdio();
        try {
            for (int i = 0; i < 3; i++) {
                s.open(i, r[i]);
            }
        } catch (IOException e) {
            s.close();
            throw e;
        }
        return Optional.of(s);
    }

    private void open(int i, Redirect r) throws IOException {
        if (r.type() == Redirect.Type.INHERIT) {
            fds[i] = i;
            return;
        }
        int flags = switch (r.type()) {
            case READ -> ZygoteCalls.O_RDONLY;
            case WRITE -> ZygoteCalls.O_WRONLY | ZygoteCalls.O_CREAT | ZygoteCalls.O_TRUNC;
            case APPEND -> ZygoteCalls.O_WRONLY | ZygoteCalls.O_CREAT | ZygoteCalls.O_APPEND;
            default -> throw new IOException("no descriptor form for " + r);
        };
        int fd = C.open(r.file().getPath(), flags | ZygoteCalls.O_CLOEXEC, 0666);
        if (fd < 0) {
            // The same failure ProcessBuilder.start would raise for this redirect.
            throw new IOException(r.file() + ": cannot open (errno " + Native.getLastError() + ")");
        }
        fds[i] = fd;
        opened[i] = true;
    }

    @Override
    public void close() {
        for (int i = 0; i < 3; i++) {
            if (opened[i]) {
                C.close(fds[i]);
                opened[i] = false;
            }
        }
    }
}
