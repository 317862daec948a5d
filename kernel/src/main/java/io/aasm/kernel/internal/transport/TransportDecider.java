package io.aasm.kernel.internal.transport;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.TransportMediation;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides whether a launch's traffic is mediated. It is, unless switched off for the launch, whenever the
 * policy grants network egress the boundary cannot carry by itself: with a boundary, any grant beyond this
 * host's loopback; without one, any grant at all (the proxy is then the only thing that applies them). A launch
 * that grants no egress needs no proxy (and never pays for one). A launch that needs mediation while no mediator
 * is installed is refused: there is no silent fallback to unmediated traffic.
 */
public final class TransportDecider {

    public sealed interface Outcome {
        record Decided(TransportMediation transport) implements Outcome {
            public Decided {
                Objects.requireNonNull(transport);
            }
        }

        record Unavailable(String message) implements Outcome {
            public Unavailable {
                Objects.requireNonNull(message);
            }
        }
    }

    public Outcome decide(boolean requested, IsolationClass isolation, List<ControlRequirement> requirements,
                          boolean mediatorInstalled) {
        if (!requested) {
            return new Outcome.Decided(TransportMediation.off("transport mediation is switched off for this launch: "
                    + "the program's traffic is not mediated; its boundary (below) is unchanged"));
        }
        Optional<ControlRequirement> egress = requirements.stream()
                .filter(r -> r.domain() == CapabilityDomain.NETWORK_EGRESS).findFirst();
        if (egress.isEmpty()) {
            return new Outcome.Decided(TransportMediation.notNeeded("the policy states no network egress: nothing is "
                    + "granted for a proxy to apply, so the program's traffic is not mediated (state network.egress "
                    + "to have it mediated)"));
        }
        List<EgressGrant> grants = grants(egress.get());
        boolean confined = isolation != IsolationClass.NONE;
        if (grants.isEmpty()) {
            return new Outcome.Decided(TransportMediation.notNeeded(confined ? "no network egress is granted: the "
                    + "boundary leaves the program no route out, so there is no traffic to mediate" : "no network "
                    + "egress is granted, so a proxy would admit nothing; without a boundary nothing restricts or "
                    + "mediates the program's traffic either"));
        }
        if (confined && grants.stream().allMatch(EgressGrant::loopbackOnly)) {
            return new Outcome.Decided(TransportMediation.notNeeded("only this host's loopback is granted: the "
                    + "boundary carries those ports itself and nothing leaves this host"));
        }
        if (!mediatorInstalled) {
            return new Outcome.Unavailable("transport mediation is requested and this launch needs it (its network "
                    + "egress grants " + (confined ? "reach beyond this host's loopback" : "are applied by the proxy "
                    + "alone when there is no boundary") + "), but no transport mediator is installed; nothing was "
                    + "started. Install the mediator, or switch transport mediation off for this launch to rely on "
                    + "the boundary alone");
        }
        if (!confined) {
            return new Outcome.Decided(TransportMediation.mediated(0, "the program is not confined: its proxy "
                    + "variables point at the supervisor's proxy on this host's loopback, which admits only the "
                    + "granted destinations; a program that ignores them is not stopped"));
        }
        int port = boundaryPort(grants);
        return new Outcome.Decided(TransportMediation.mediated(port, "the program's network egress leaves its boundary "
                + "only through the supervisor's proxy (HTTP CONNECT, plain HTTP, SOCKS5) at 127.0.0.1:" + port
                + " inside it, which admits only the granted destinations and resolves their names itself"));
    }

    static List<EgressGrant> grants(ControlRequirement egress) {
        return egress.scope() instanceof Scope.Egress e ? e.grants() : List.of();
    }

    /** The default proxy port, or the next one no loopback TCP grant takes (the boundary relays those itself). */
    static int boundaryPort(List<EgressGrant> grants) {
        for (int p = TransportMediation.DEFAULT_PORT; p < 65535; p++) {
            int port = p;
            boolean taken = grants.stream().anyMatch(g -> g.loopbackOnly() && g.protocol() == Protocol.TCP
                    && g.portFrom() <= port && port <= g.portTo());
            if (!taken) {
                return p;
            }
        }
        return TransportMediation.DEFAULT_PORT;
    }
}
