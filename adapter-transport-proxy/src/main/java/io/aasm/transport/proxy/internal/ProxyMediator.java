package io.aasm.transport.proxy.internal;

import io.aasm.ports.transport.MediationException;
import io.aasm.ports.transport.MediationRequest;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.TransportMediator;
import io.aasm.transport.proxy.internal.admission.Admission;
import io.aasm.transport.proxy.internal.admission.Resolver;
import io.aasm.transport.proxy.internal.admission.SpecialAddresses;
import io.aasm.transport.proxy.internal.session.ProxySession;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The transport mediator: a JDK-only proxy (HTTP CONNECT, plain-HTTP absolute form, SOCKS5) owned by the
 * supervisor. Activation only reads the configuration; the first {@link #open} starts the shared thread pool,
 * so a launch that is not mediated costs nothing here.
 */
@Component(service = TransportMediator.class, configurationPid = "io.aasm.transport.proxy",
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = ProxyConfig.class)
public final class ProxyMediator implements TransportMediator {
    private final Path stateDir;
    private final int connectTimeoutMillis;
    private final Resolver resolver;
    private final SpecialAddresses special;
    private ExecutorService pool;
    private ScheduledExecutorService timer;

    @Activate
    public ProxyMediator(ProxyConfig config) {
        this(config.state_dir().isBlank() ? defaultStateDir() : Path.of(config.state_dir()),
                config.connect_timeout_millis(), Resolver.system(), SpecialAddresses.ofThisHost());
    }

    /** For tests: a state directory, a resolver and a special-address table of their own. */
    public ProxyMediator(Path stateDir, int connectTimeoutMillis, Resolver resolver, SpecialAddresses special) {
        this.stateDir = stateDir.toAbsolutePath();
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.resolver = resolver;
        this.special = special;
    }

    public static Path defaultStateDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("aasm").resolve("mediation");
    }

    @Override
    public MediationSession open(MediationRequest request) throws MediationException {
        Admission admission = new Admission(request.grants(), request.pinnedHosts(), resolver, special);
        return ProxySession.open(request, admission, context());
    }

    private synchronized ProxySession.Context context() {
        if (pool == null) {
            pool = Executors.newCachedThreadPool(daemons("aasm-mediation-"));
            timer = Executors.newSingleThreadScheduledExecutor(daemons("aasm-mediation-timer-"));
        }
        return new ProxySession.Context(stateDir, connectTimeoutMillis, pool, timer);
    }

    @Deactivate
    synchronized void stop() {
        if (pool != null) {
            pool.shutdownNow();
            timer.shutdownNow();
        }
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
