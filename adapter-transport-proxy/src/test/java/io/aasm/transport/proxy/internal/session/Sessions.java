package io.aasm.transport.proxy.internal.session;

import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.transport.MediationAccess;
import io.aasm.ports.transport.MediationException;
import io.aasm.ports.transport.MediationRequest;
import io.aasm.ports.transport.MediationSession;
import io.aasm.transport.proxy.internal.ProxyMediator;
import io.aasm.transport.proxy.internal.admission.Literals;
import io.aasm.transport.proxy.internal.admission.Resolver;
import io.aasm.transport.proxy.internal.admission.SpecialAddresses;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Opens real sessions of a real mediator for the tests, with a resolver table of the test's own. */
final class Sessions {
    private Sessions() {
    }

    static EgressGrant tcp(String host, int port) {
        return new EgressGrant(Protocol.TCP, host, port, port);
    }

    static ProxyMediator mediator(Path state, Map<String, String> dns) {
        Resolver r = name -> {
            String a = dns.get(name);
            if (a == null) {
                throw new UnknownHostException(name);
            }
            InetAddress addr = Literals.parse(a).orElseThrow();
            return List.of(addr);
        };
        return new ProxyMediator(state, 2000, r, new SpecialAddresses(a -> false));
    }

    static MediationSession relayed(ProxyMediator m, List<EgressGrant> grants, Map<String, String> pins)
            throws MediationException {
        return m.open(new MediationRequest("t" + Long.toHexString(System.nanoTime()), grants, new TreeMap<>(pins),
                MediationAccess.RELAY, 3128));
    }

    static MediationSession loopback(ProxyMediator m, List<EgressGrant> grants, Map<String, String> pins)
            throws MediationException {
        return m.open(new MediationRequest("t" + Long.toHexString(System.nanoTime()), grants, new TreeMap<>(pins),
                MediationAccess.LOOPBACK, 0));
    }
}
