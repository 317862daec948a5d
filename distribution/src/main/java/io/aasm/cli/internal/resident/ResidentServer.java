package io.aasm.cli.internal.resident;

import io.aasm.ports.kernel.FrameworkProperties;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import io.aasm.cli.internal.CommandEntry;
import io.aasm.cli.internal.wire.DaemonStatus;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * The resident kernel's socket. Active only in a framework started by {@code aasm daemon run} (framework
 * property {@code aasm.resident.socket}); every other face leaves it idle. Serves each connection on its
 * own thread of a cached pool, so a slow or hung client never holds up another.
 *
 * <p>Start-up order matters for safety: the lock file next to the socket is taken first (one kernel per
 * socket), then a socket file nobody listens on is removed as stale, then the new socket is bound and
 * made 0600 before it listens. Once it listens, it registers a {@code Supplier} of its status with
 * {@code aasm.resident=listening}: what the launcher's {@code daemon run} waits for (JDK types only).
 */
@Component(immediate = true)
public final class ResidentServer implements Connection.Server {
    static final String SOCKET_PROPERTY = "aasm.resident.socket";

    static final String LISTENING = "aasm.resident";

    private final CommandEntry entry;
    private final BundleContext ctx;
    private final String path;
    private final int uid;
    private final Instant started = Instant.now();
    private final AtomicLong served = new AtomicLong();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "aasm-resident-connection");
        t.setDaemon(true);
        return t;
    });
    private final CallerJudge judge;
    private volatile int listener = -1;
    private volatile ServiceRegistration<?> listening;
    private FileChannel lockChannel;
    private FileLock lock;

    @Activate
    public ResidentServer(BundleContext ctx,
            @Reference CommandEntry entry) throws IOException {
        this.ctx = ctx;
        this.entry = entry;
        this.path = ctx.getProperty(SOCKET_PROPERTY);
        // an idle server (every face but `daemon run`) must not even load the native library
        this.uid = path == null ? -1 : Libc.C.geteuid();
        this.judge = new CallerJudge(Path.of("/proc"), ProcessHandle.current().pid());
        if (path != null) {
            open();
        }
    }

    private void open() throws IOException {
        Path sock = Path.of(path);
        lockChannel = FileChannel.open(Path.of(path + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        lock = lockChannel.tryLock();
        if (lock == null) {
            lockChannel.close();
            throw new IOException("another resident kernel holds " + path + ".lock");
        }
        if (Files.exists(sock)) {
            // we hold the lock, so whoever bound this socket is gone: it is stale
            Files.delete(sock);
            log0("replaced a stale socket at " + path);
        }
        listener = UnixSockets.listen(path);
        Thread acceptor = new Thread(this::acceptLoop, "aasm-resident-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        log0("resident kernel listening on " + path + " (pid " + Libc.C.getpid() + ")");
        Supplier<String> status = this::status;
        listening = ctx.registerService(Supplier.class, status, FrameworkUtil.asDictionary(Map.of(LISTENING, "listening")));
    }

    private void acceptLoop() {
        for (;;) {
            int l = listener;
            int fd = l < 0 ? -1 : UnixSockets.accept(l);
            if (fd < 0) {
                return;
            }
            served.incrementAndGet();
            try {
                pool.execute(new Connection(fd, this, pool));
            } catch (RuntimeException e) {
                UnixSockets.closeQuietly(fd);
            }
        }
    }

    @Deactivate
    void close() {
        ServiceRegistration<?> reg = listening;
        listening = null;
        if (reg != null) {
            try {
                reg.unregister();
            } catch (IllegalStateException e) {
                // already gone with the bundle
            }
        }
        int l = listener;
        listener = -1;
        if (l >= 0) {
            Libc.C.shutdown(l, Libc.SHUT_RDWR); // wakes the blocked accept
            Libc.C.close(l);
            try {
                Files.deleteIfExists(Path.of(path));
            } catch (IOException e) {
                // left behind: the next start sees it as stale and replaces it
            }
        }
        pool.shutdownNow();
        try {
            if (lock != null) {
                lock.release();
            }
            if (lockChannel != null) {
                lockChannel.close();
            }
        } catch (IOException e) {
            // released by the process's end anyway
        }
    }

    @Override
    public int uid() {
        return uid;
    }

    @Override
    public String socketPath() {
        return path;
    }

    @Override
    public String home() {
        return ctx.getProperty(FrameworkProperties.HOME);
    }

    @Override
    public CommandEntry entry() {
        return entry;
    }

    @Override
    public String status() {
        long up = Duration.between(started, Instant.now()).toSeconds();
        return new DaemonStatus(Libc.C.getpid(), up, served.get(), Path.of(path)).line();
    }

    @Override
    public CallerVerdict identify(int fd, long pid) {
        try (PeerPin pin = PeerPin.of(fd, pid)) {
            CallerVerdict v = judge.judge(pid);
            // decided first, verified after: the facts were about this process only if it still holds its pid
            return pin.stillLiving(pid) ? v : v.plus("it exited, or could not be pinned, while it was identified ("
                    + pin.how() + ")");
        }
    }

    @Override
    public void log(String line) {
        log0(line);
    }

    @Override
    public void stopSoon() {
        Thread t = new Thread(() -> {
            try {
                ctx.getBundle(0).stop();
            } catch (BundleException | IllegalStateException e) {
                log0("stop failed: " + e);
            }
        }, "aasm-resident-stop");
        t.start();
    }

    private static void log0(String msg) {
        PrintStream err = System.err;
        err.println("aasm daemon: " + msg);
    }
}
