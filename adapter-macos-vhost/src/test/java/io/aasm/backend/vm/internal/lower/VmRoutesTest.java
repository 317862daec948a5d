package io.aasm.backend.vm.internal.lower;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.TransportMediation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The egress routes without a guest: a TCP host grant goes through mediation only, and says how. */
class VmRoutesTest {
    private static final VmRoutes ROUTES = new VmRoutes(12, 512, 7);

    private static ControlRequirement egress(EgressGrant g) {
        return ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(g)));
    }

    @Test
    void aHostGrantIsSupportedOnlyWhenMediatedAndNamesItsLimitations() {
        ControlRequirement r = egress(new EgressGrant(Protocol.TCP, "pypi.test", 443, 443));
        Route mediated = ROUTES.route(r, TransportMediation.mediated(3128, "test"));
        Route.Supported s = assertInstanceOf(Route.Supported.class, mediated);
        assertFalse(s.limitations().isEmpty(), "partial support names its limitations");
        assertTrue(s.needs().isEmpty());
        // control: the same grant with mediation switched off is refused, naming --no-proxy
        Route off = ROUTES.route(r, TransportMediation.off("--no-proxy"));
        assertTrue(assertInstanceOf(Route.Unsupported.class, off).reason().contains("--no-proxy"));
    }

    @Test
    void loopbackAndUdpGrantsAreRefusedEvenWhenMediated() {
        TransportMediation m = TransportMediation.mediated(3128, "test");
        assertInstanceOf(Route.Unsupported.class, ROUTES.route(egress(new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 80,
                80)), m));
        assertInstanceOf(Route.Unsupported.class, ROUTES.route(egress(new EgressGrant(Protocol.UDP, "dns.test", 53,
                53)), m));
        assertTrue(VmRoutes.mediatedPort(new Scope.Egress(List.of(new EgressGrant(Protocol.UDP, "dns.test", 53, 53))),
                m).isEmpty());
    }
}
