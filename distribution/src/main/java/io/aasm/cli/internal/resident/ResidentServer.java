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
import io.aasm.cli.internal.wire.Frames;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
 * own thread of a bounded pool, so a slow or hung client never holds up another, and never more
 * connections, launches or threads than {@link ResidentLimits} allow.
 *
 * <p>Start-up order matters for safety: the lock file next to the socket is taken first (one kernel per
 * socket), then a socket file nobody listens on is removed as stale, then the new socket is bound and
 * made 0600 before it listens. Once it listens, it registers a {@code Supplier} of its status with
 * {@code aasm.resident=listening}: what the boot jar's {@code daemon run} waits for (JDK types only).
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
    private final ResidentLimits limits;
    private final Admission admission;
    private final ThreadPoolExecutor pool;
    private final CallerJudge judge;
    private IdleCollector idle;
    private Thread idleThread;
    private RequestLog requests;
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
        this.limits = limits(ctx);
        this.admission = new Admission(limits);
        // bounded: a connection slot is taken before a connection gets a thread, so this never refuses work
        this.pool = new ThreadPoolExecutor(0, limits.maxConnectionThreads(), 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "aasm-resident-connection");
                    t.setDaemon(true);
                    return t;
                });
        if (path != null) {
            open();
        }
    }

    /** The limits; bad ones are said in one line first (the component's failure is a stack trace). */
    private static ResidentLimits limits(BundleContext ctx) {
        try {
            return ResidentLimits.from(ctx::getProperty);
        } catch (IllegalArgumentException e) {
            log0(e.getMessage() + "; the resident kernel does not start");
            throw e;
        }
    }

    /** The collector that shrinks the heap after a burst; a bad setting is said in one line first, like the limits. */
    private static IdleCollector idleCollector(Admission admission) {
        long seconds;
        try {
            seconds = IdleCollector.quietSeconds(System.getProperty(IdleCollector.PROPERTY));
        } catch (IllegalArgumentException e) {
            log0(e.getMessage() + "; the resident kernel does not start");
            throw e;
        }
        return new IdleCollector(seconds * 1_000_000_000L, admission::open, IdleCollector::collectOnce,
                NativeHeapTrim::trim);
    }

    private void open() throws IOException {
        idle = idleCollector(admission); // a bad setting refuses before the lock is taken
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
        requests = new RequestLog(sock.resolveSibling("aasm-requests.log"), limits, ResidentServer::log0);
        listener = UnixSockets.listen(path);
        Thread acceptor = new Thread(this::acceptLoop, "aasm-resident-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        idleThread = IdleCollector.startIfEnabled(idle);
        log0("resident kernel listening on " + path + " (pid " + Libc.C.getpid() + "; " + limits + ")");
        Supplier<String> status = this::status;
        listening = ctx.registerService(Supplier.class, status, FrameworkUtil.asDictionary(Map.of(LISTENING, "listening")));
        // after readiness, never before it: the first client's launch need not activate the default walk
        Warmup.startIfEnabled(ctx, entry, uid, ResidentServer::log0);
    }

    private void acceptLoop() {
        for (;;) {
            int l = listener;
            int fd = l < 0 ? -1 : UnixSockets.accept(l);
            if (fd < 0) {
                return;
            }
            long accepted = System.nanoTime();
            served.incrementAndGet();
            idle.activity();
            if (!admission.tryConnection()) {
                refuseAtAccept(fd, accepted);
                continue;
            }
            try {
                Connection c = new Connection(fd, this, pool, accepted);
                pool.execute(() -> {
                    try {
                        c.run();
                    } finally {
                        admission.releaseConnection();
                        idle.activity(); // the quiet period counts from the last connection's end
                    }
                });
            } catch (RuntimeException e) {
                admission.releaseConnection();
                UnixSockets.closeQuietly(fd);
                log0("dropped a connection: " + e);
            }
        }
    }

    /**
     * Over the connection bound: a {@code B} answer and the end of the connection, from this thread (a
     * fresh socket's send buffer takes the short frame without blocking); its request is never read.
     */
    private void refuseAtAccept(int fd, long accepted) {
        RequestLog.Entry e = new RequestLog.Entry().outcome("refused", "max_connections");
        try {
            int[] peer = UnixSockets.peer(fd);
            e.put("pid", peer[0]).put("uid", peer[1]);
            byte[] busy = Frames.text(Frames.BUSY, admission.connectionsRefusal());
            Libc.C.write(fd, busy, busy.length);
        } catch (IOException | RuntimeException ex) {
            // the peer is gone already; the refusal is logged all the same
        } finally {
            UnixSockets.closeQuietly(fd);
        }
        requests.write(e.put("ms", (System.nanoTime() - accepted) / 1_000_000L));
        log0("refused a connection: at most " + limits.maxConnections() + " at once (aasm.resident.max.connections)");
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
        if (idleThread != null) {
            idleThread.interrupt();
        }
        if (requests != null) {
            requests.close();
        }
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
    public ResidentLimits limits() {
        return limits;
    }

    @Override
    public Admission admission() {
        return admission;
    }

    @Override
    public RequestLog requests() {
        return requests;
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
