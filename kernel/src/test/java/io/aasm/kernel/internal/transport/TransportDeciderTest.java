package io.aasm.kernel.internal.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.IsolationClass;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.TransportMediation;
import io.aasm.ports.transport.TransportMediation.State;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransportDeciderTest {
    private final TransportDecider decider = new TransportDecider();

    private static List<ControlRequirement> egress(EgressGrant... grants) {
        return List.of(ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(grants))));
    }

    private static EgressGrant tcp(String host, int from, int to) {
        return new EgressGrant(Protocol.TCP, host, from, to);
    }

    private TransportMediation decided(boolean requested, IsolationClass i, List<ControlRequirement> reqs) {
        return assertInstanceOf(TransportDecider.Outcome.Decided.class, decider.decide(requested, i, reqs, true))
                .transport();
    }

    @Test
    void onlyGrantsBeyondTheBoundaryNeedMediation() {
        assertEquals(State.OFF, decided(false, IsolationClass.AUTO, egress(tcp("pypi.org", 443, 443))).state());
        assertEquals(State.NOT_NEEDED, decided(true, IsolationClass.AUTO, List.of()).state());
        assertEquals(State.NOT_NEEDED, decided(true, IsolationClass.AUTO, egress()).state());
        assertEquals(State.NOT_NEEDED, decided(true, IsolationClass.PROCESS, egress(tcp("loopback", 80, 80))).state());
        TransportMediation m = decided(true, IsolationClass.AUTO, egress(tcp("pypi.org", 443, 443)));
        assertEquals(State.MEDIATED, m.state());
        assertEquals(3128, m.boundaryPort());
        assertEquals(State.MEDIATED, decided(true, IsolationClass.PROCESS, egress(tcp("0.0.0.0/0", 443, 443),
                tcp("::/0", 443, 443))).state());
    }

    @Test
    void withoutABoundaryAnyGrantIsMediated() {
        assertEquals(State.NOT_NEEDED, decided(true, IsolationClass.NONE, egress()).state());
        assertEquals(0, decided(true, IsolationClass.NONE, egress(tcp("loopback", 80, 80))).boundaryPort());
        assertEquals(State.NOT_NEEDED, decided(true, IsolationClass.NONE, List.of()).state());
    }

    @Test
    void theProxyPortAvoidsLoopbackGrants() {
        assertEquals(3130, decided(true, IsolationClass.AUTO, egress(tcp("loopback", 3128, 3129),
                tcp("pypi.org", 443, 443))).boundaryPort());
    }

    @Test
    void needingAMediatorThatIsNotInstalledIsAnOutcomeNotAGuess() {
        assertInstanceOf(TransportDecider.Outcome.Unavailable.class,
                decider.decide(true, IsolationClass.AUTO, egress(tcp("pypi.org", 443, 443)), false));
        assertInstanceOf(TransportDecider.Outcome.Decided.class,
                decider.decide(true, IsolationClass.AUTO, egress(tcp("loopback", 443, 443)), false));
        assertInstanceOf(TransportDecider.Outcome.Decided.class,
                decider.decide(false, IsolationClass.AUTO, egress(tcp("pypi.org", 443, 443)), false));
    }
}
