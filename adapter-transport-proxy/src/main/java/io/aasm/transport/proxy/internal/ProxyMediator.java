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
    private final String configuredStateDir;
    private final int connectTimeoutMillis;
    private final boolean handOff;
    private Path stateDir;
    private Resolver resolver;
    private SpecialAddresses special;
    private ExecutorService pool;
    private ScheduledExecutorService timer;

    /** Reads the configuration only: the kernel binds this service at every start, launches mediated or not. */
    @Activate
    public ProxyMediator(ProxyConfig config) {
        this.configuredStateDir = config.state_dir();
        this.connectTimeoutMillis = config.connect_timeout_millis();
        this.handOff = config.hand_off();
    }

    /** For tests: a state directory, a resolver and a special-address table of their own. */
    public ProxyMediator(Path stateDir, int connectTimeoutMillis, Resolver resolver, SpecialAddresses special) {
        this.configuredStateDir = stateDir.toString();
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.handOff = true;
        this.stateDir = stateDir.toAbsolutePath();
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
        ProxySession.Context ctx = context();
        Admission admission = new Admission(request.grants(), request.pinnedHosts(), resolver, special);
        return ProxySession.open(request, admission, ctx);
    }

    /** Everything a session needs, made by the first mediated launch. */
    private synchronized ProxySession.Context context() {
        if (stateDir == null) {
            stateDir = (configuredStateDir.isBlank() ? defaultStateDir() : Path.of(configuredStateDir))
                    .toAbsolutePath();
            resolver = Resolver.system();
            special = SpecialAddresses.ofThisHost();
        }
        if (pool == null) {
            pool = Executors.newCachedThreadPool(daemons("aasm-mediation-"));
            timer = Executors.newSingleThreadScheduledExecutor(daemons("aasm-mediation-timer-"));
        }
        return new ProxySession.Context(stateDir, connectTimeoutMillis, pool, timer, handOff);
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
