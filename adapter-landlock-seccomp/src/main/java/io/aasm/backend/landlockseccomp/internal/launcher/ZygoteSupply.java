package io.aasm.backend.landlockseccomp.internal.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The resident kernel's zygote for one launcher binary: started at the first launch that can use it, started
 * again when it died. Answers empty whenever the launch should start its launcher directly (a pipe for stdio, a
 * zygote that cannot start), so a zygote's death never fails a launch. A zygote that cannot start is not tried
 * again at every launch (each try executes a process and waits for it): launches start directly for a while,
 * one second after the first failure, doubling up to a minute.
 */
public final class ZygoteSupply implements AutoCloseable {
    /** {@code -Daasm.native.zygote=false} starts every launcher directly (paired measurements, or a suspicion). */
    public static final String PROPERTY = "aasm.native.zygote";
    /** {@code -Daasm.native.zygote.plan=connect}: the forked launcher connects and reads its plan (the old way). */
    public static final String PLAN_PROPERTY = "aasm.native.zygote.plan";
    /**
     * {@code -Daasm.native.zygote.ahead=true}: the zygote keeps one child forked ahead of the next request. Off by
     * default: paired at load 29-58 it raised launches/s at 8 clients but not the single launch's latency
     * (docs/benchmarks.md).
     */
    public static final String AHEAD_PROPERTY = "aasm.native.zygote.ahead";

    static final long FIRST_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
    static final long MAX_BACKOFF_NANOS = TimeUnit.MINUTES.toNanos(1);

    private static final System.Logger LOG = System.getLogger(ZygoteSupply.class.getName());
    private final Path launcher;
    private final LongSupplier clock;
    private final boolean planInRequest = !"connect".equals(System.getProperty(PLAN_PROPERTY, "").trim());
    private final boolean ahead;
    private Zygote current;
    private int starts, attempts;
    private long backoff, retryAt;

    public ZygoteSupply(Path launcher) {
        this(launcher, System::nanoTime, Boolean.parseBoolean(System.getProperty(AHEAD_PROPERTY, "").trim()));
    }

    ZygoteSupply(Path launcher, LongSupplier clock, boolean ahead) {
        this.launcher = launcher;
        this.clock = clock;
        this.ahead = ahead;
    }

    /** The switch: {@code -Daasm.native.zygote=true|false}, else on exactly when {@code resident}. */
    public static boolean enabled(boolean resident) {
        String v = System.getProperty(PROPERTY, "");
        return v.isBlank() ? resident : Boolean.parseBoolean(v.trim());
    }

    /** Whether launches send their plan with the request ({@link PlanChannel}) rather than on a connection. */
    boolean planInRequest() {
        return planInRequest;
    }

    /** Thrown when the zygote failed after it may have forked: the caller must not reuse the request's channel. */
    static final class Uncertain extends IOException {
        Uncertain(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * A launcher forked for channel {@code spec} on {@code options}' stdio (and {@code channel}, sent as its fd 3,
     * when not negative), or empty (start one directly). Throws {@link IOException} when a stdio file cannot be
     * opened, as {@link ProcessBuilder#start} would.
     */
    Optional<LauncherHandle> fork(LaunchOptions options, String spec, int channel) throws IOException {
        Optional<ForkStdio> stdio = ForkStdio.of(options);
        if (stdio.isEmpty()) {
            return Optional.empty();
        }
        try (ForkStdio s = stdio.get()) {
            int[] fds = channel < 0 ? s.fds : new int[] {s.fds[0], s.fds[1], s.fds[2], channel};
            for (int attempt = 0; attempt < 2; attempt++) {
                Zygote z = current();
                if (z == null) {
                    return Optional.empty();
                }
                try {
                    return Optional.of(z.fork(fds, spec));
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

    /** How many times a zygote start was attempted (tests of the back-off). */
    synchronized int attempts() {
        return attempts;
    }

    synchronized Zygote current() {
        if (current != null && current.usable()) {
            return current;
        }
        current = null;
        if (attempts > 0 && backoff > 0 && clock.getAsLong() - retryAt < 0) {
            return null; // it failed to start lately: launchers start directly until retryAt
        }
        attempts++;
        try {
            current = Zygote.start(launcher, ahead);
            backoff = 0;
            if (starts++ > 0) {
                LOG.log(System.Logger.Level.INFO, "aasm-native: the launcher zygote had ended; started it again");
            }
            return current;
        } catch (IOException e) {
            backoff = backoff == 0 ? FIRST_BACKOFF_NANOS : Math.min(MAX_BACKOFF_NANOS, backoff * 2);
            retryAt = clock.getAsLong() + backoff;
            LOG.log(System.Logger.Level.WARNING, "aasm-native: the launcher zygote could not start ("
                    + e.getMessage() + "); launchers start directly for the next "
                    + TimeUnit.NANOSECONDS.toMillis(backoff) + " ms");
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
