package io.aasm.transport.proxy.internal.session;

import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.MediationAccess;
import io.aasm.ports.transport.MediationException;
import io.aasm.ports.transport.MediationRequest;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.MediationTally;
import io.aasm.ports.transport.RelayEndpoint;
import io.aasm.transport.proxy.internal.admission.Admission;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * The mediation of one launch: its own listener (a unix socket in its own 0700 folder for a relayed launch;
 * {@code 127.0.0.1} on a free port for a launch without a boundary), its own credential, its own records. One
 * pool thread waits in {@code accept}; the connection it gets is served on that same thread (an {@link Exchange})
 * once it has asked the pool for the next accepting thread, so no connection waits for a hand-over between
 * threads before its request is read (a wake-up of another thread, on a loaded machine a scheduling round, on
 * every connect: docs/mediation.md, "Connect latency").
 */
public final class ProxySession implements MediationSession {
    /** Connections of one session open at once; more are refused and recorded. */
    static final int MAX_OPEN = 256;

    private final String launchId;
    private final Gate gate;
    private final ServerSocketChannel listener;
    private final Optional<SessionFiles> files;
    private final Map<String, String> environment;
    private final DecisionBook book;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final Context ctx;
    private final Admission admission;
    private final Dialer dialer;
    private volatile boolean closed;

    private ProxySession(String launchId, Gate gate, ServerSocketChannel listener, Optional<SessionFiles> files,
                         Map<String, String> environment, DecisionBook book, Context ctx, Admission admission) {
        this.launchId = launchId;
        this.gate = gate;
        this.listener = listener;
        this.files = files;
        this.environment = Map.copyOf(environment);
        this.book = book;
        this.ctx = ctx;
        this.admission = admission;
        this.dialer = new Dialer(ctx.connectTimeoutMillis());
    }

    /** What every session of one mediator shares. */
    public record Context(Path stateDir, int connectTimeoutMillis, ExecutorService pool,
                          java.util.concurrent.ScheduledExecutorService timer, boolean handOff) {
    }

    public static ProxySession open(MediationRequest req, Admission admission, Context ctx) throws MediationException {
        String id = req.launchId().matches("[A-Za-z0-9][A-Za-z0-9-]{0,63}") ? req.launchId()
                : Long.toHexString(System.nanoTime());
        SessionFiles files = null;
        ServerSocketChannel listener = null;
        try {
            files = SessionFiles.create(ctx.stateDir(), id);
            DecisionBook book = new DecisionBook(Optional.of(files.log));
            Gate gate;
            Map<String, String> env;
            if (req.access() == MediationAccess.RELAY) {
                gate = Gate.forRelay();
                listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                listener.bind(UnixDomainSocketAddress.of(files.socket), 64);
                Files.setPosixFilePermissions(files.socket, PosixFilePermissions.fromString("rw-------"));
                env = ProxyVariables.of("127.0.0.1:" + req.boundaryPort());
            } else {
                gate = Gate.forLoopback();
                listener = ServerSocketChannel.open();
                listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
                int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
                env = ProxyVariables.of(gate.userInfo() + "127.0.0.1:" + port);
            }
            ProxySession s = new ProxySession(id, gate, listener, Optional.of(files), env, book, ctx, admission);
            ctx.pool().execute(s::acceptOne);
            return s;
        } catch (IOException | RuntimeException e) {
            closeQuietly(listener);
            if (files != null) {
                files.releaseSocket();
            }
            throw new MediationException("the transport mediation of launch " + id + " cannot listen: " + e.getMessage(),
                    e);
        }
    }

    /**
     * Waits for one connection, hands the waiting to the next pool thread, and serves the connection here. A
     * pool that refuses the next accept is shutting down (the mediator stops): nothing more is accepted.
     */
    private void acceptOne() {
        SocketChannel c;
        try {
            c = listener.accept();
        } catch (IOException e) {
            return; // closed
        }
        boolean more = !closed;
        if (more) {
            try {
                ctx.pool().execute(this::acceptOne);
            } catch (RejectedExecutionException e) {
                more = false;
            }
        }
        if (!more || open.size() >= MAX_OPEN) {
            if (more) {
                book.add(new Attempt(launchId).protocol("unknown").reason("more than " + MAX_OPEN
                        + " connections open at once").done());
            }
            Tunnel.close(c);
            return;
        }
        open.add(c);
        new Exchange(c, launchId, admission, gate, dialer, book, ctx.pool(), ctx.timer(), () -> release(c),
                () -> closed, ctx.handOff()).run();
    }

    private void release(SocketChannel c) {
        open.remove(c);
        synchronized (open) {
            open.notifyAll();
        }
    }

    @Override
    public String launchId() {
        return launchId;
    }

    @Override
    public Optional<RelayEndpoint> relay() {
        return gate.relayed() ? files.map(f -> new RelayEndpoint(f.socket, gate.preamble().orElseThrow()))
                : Optional.empty();
    }

    @Override
    public Map<String, String> environment() {
        return environment;
    }

    @Override
    public List<EgressDecision> decisions() {
        return book.decisions();
    }

    @Override
    public MediationTally tally() {
        return book.tally();
    }

    @Override
    public Optional<Path> decisionLog() {
        return book.path();
    }

    /** Ends every open connection and waits (briefly) until each has written its record. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(listener);
        files.ifPresent(SessionFiles::releaseSocket);
        open.forEach(Tunnel::close);
        long deadline = System.nanoTime() + 2_000_000_000L;
        synchronized (open) {
            while (!open.isEmpty() && System.nanoTime() < deadline) {
                try {
                    open.wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        book.close();
    }

    private static void closeQuietly(ServerSocketChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // nothing listens any more
            }
        }
    }
}
