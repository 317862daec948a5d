package io.aasm.backend.container.internal;

import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.MediationAccess;
import io.aasm.ports.transport.MediationException;
import io.aasm.ports.transport.MediationRequest;
import io.aasm.ports.transport.TransportMediation;
import io.aasm.transport.proxy.internal.admission.Admission;
import io.aasm.transport.proxy.internal.admission.Resolver;
import io.aasm.transport.proxy.internal.admission.SpecialAddresses;
import io.aasm.transport.proxy.internal.session.ProxySession;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The real transport-mediation proxy (adapter-transport-proxy's session, as the kernel opens it for a relayed
 * launch), for the tests where what the proxy decides and records is part of the effect: the hand-off to the
 * container's relay and the byte counts of its decision records. {@code handOff} is the proxy's
 * {@code hand.off} switch, the one difference of the hand-off's control.
 */
final class RealProxy implements AutoCloseable {
    final ProxySession session;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> daemon(r, "test-mediation"));
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            r -> daemon(r, "test-mediation-timer"));

    RealProxy(Path dir, boolean handOff, SortedMap<String, String> pinned, EgressGrant... grants)
            throws MediationException {
        ProxySession.Context ctx = new ProxySession.Context(dir.resolve("mediation"), 5_000, pool, timer, handOff);
        Admission admission = new Admission(List.of(grants), pinned, Resolver.system(), SpecialAddresses.ofThisHost());
        session = ProxySession.open(new MediationRequest("ctr-test", List.of(grants), pinned, MediationAccess.RELAY,
                TransportMediation.DEFAULT_PORT), admission, ctx);
    }

    /** The records once there are {@code count} (each is written when its connection is over), or after 30 s. */
    List<EgressDecision> decisions(int count) throws InterruptedException {
        long end = System.currentTimeMillis() + 30_000;
        while (session.decisions().size() < count && System.currentTimeMillis() < end) {
            Thread.sleep(20);
        }
        return session.decisions();
    }

    @Override
    public void close() {
        session.close();
        pool.shutdownNow();
        timer.shutdownNow();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
