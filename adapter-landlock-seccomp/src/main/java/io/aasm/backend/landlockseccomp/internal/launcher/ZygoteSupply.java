package io.aasm.backend.landlockseccomp.internal.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The resident kernel's zygote for one launcher binary: started at the first launch that can use it, started
 * again when it died. Answers empty whenever the launch should start its launcher directly (a pipe for stdio, a
 * zygote that cannot start), so a zygote's death never fails a launch.
 */
public final class ZygoteSupply implements AutoCloseable {
    /** {@code -Daasm.native.zygote=false} starts every launcher directly (paired measurements, or a suspicion). */
    public static final String PROPERTY = "aasm.native.zygote";

    private static final System.Logger LOG = System.getLogger(ZygoteSupply.class.getName());
    private final Path launcher;
    private Zygote current;
    private int starts;

    public ZygoteSupply(Path launcher) {
        this.launcher = launcher;
    }

    /** The switch: {@code -Daasm.native.zygote=true|false}, else on exactly when {@code resident}. */
    public static boolean enabled(boolean resident) {
        String v = System.getProperty(PROPERTY, "");
        return v.isBlank() ? resident : Boolean.parseBoolean(v.trim());
    }

    /** Thrown when the zygote failed after it may have forked: the caller must use a fresh channel. */
    static final class Uncertain extends IOException {
        Uncertain(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A launcher forked for channel {@code spec} on {@code options}' stdio, or empty (start one directly).
     * Throws {@link IOException} when a stdio file cannot be opened, as {@link ProcessBuilder#start} would.
     */
    Optional<LauncherHandle> fork(LaunchOptions options, String spec) throws IOException {
        Optional<ForkStdio> stdio = ForkStdio.of(options);
        if (stdio.isEmpty()) {
            return Optional.empty();
        }
        try (ForkStdio s = stdio.get()) {
            for (int attempt = 0; attempt < 2; attempt++) {
                Zygote z = current();
                if (z == null) {
                    return Optional.empty();
                }
                try {
                    return Optional.of(z.fork(s.fds, spec));
                } catch (Zygote.Declined e) {
                    return Optional.empty(); // nothing was forked: a launcher started directly takes this channel
                } catch (Zygote.NotSent e) {
                    z.end(); // never reached the zygote: a fresh one can take the same request
                } catch (IOException e) {
                    z.end();
                    throw new Uncertain(e.getMessage(), e);
                }
            }
        }
        return Optional.empty();
    }

    /** The running zygote's pid, if one runs (tests kill it). */
    public synchronized Optional<Long> pid() {
        return current != null && current.usable() ? Optional.of(current.pid()) : Optional.empty();
    }

    private synchronized Zygote current() {
        if (current != null && current.usable()) {
            return current;
        }
        try {
            current = Zygote.start(launcher);
            if (starts++ > 0) {
                LOG.log(System.Logger.Level.INFO, "aasm-native: the launcher zygote had ended; started it again");
            }
            return current;
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "aasm-native: the launcher zygote could not start ("
                    + e.getMessage() + "); launchers start directly");
            current = null;
            return null;
        }
    }

    @Override
    public synchronized void close() {
        if (current != null) {
            current.end();
            current = null;
        }
    }
}
