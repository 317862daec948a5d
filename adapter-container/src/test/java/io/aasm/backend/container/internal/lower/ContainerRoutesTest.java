package io.aasm.backend.container.internal.lower;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Which scopes a container can express, and the interactions between domains it must refuse. */
class ContainerRoutesTest {
    private final ContainerRoutes routes = new ContainerRoutes(SyscallTable.bundled(), false, List::of);

    private static ControlRequirement req(CapabilityDomain d, Scope s) {
        return ControlRequirement.strict(d, s);
    }

    private Route route(ControlRequirement r, ControlRequirement... others) {
        List<ControlRequirement> all = new java.util.ArrayList<>(List.of(others));
        all.add(r);
        return routes.route(r, all);
    }

    private static final io.aasm.ports.transport.TransportMediation MEDIATED =
            io.aasm.ports.transport.TransportMediation.mediated(3128, "test");

    private Route egress(io.aasm.ports.transport.TransportMediation t, EgressGrant... grants) {
        ControlRequirement r = req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(grants)));
        return routes.route(r, List.of(r), t);
    }

    @Test
    void noEgressIsSupportedAndAGrantOnlyThroughTransportMediation() {
        assertInstanceOf(Route.Supported.class, route(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of()))));
        EgressGrant pypi = new EgressGrant(Protocol.TCP, "pypi.test", 443, 443);
        Route mediated = egress(MEDIATED, pypi);
        assertTrue(((Route.Supported) mediated).mechanism().contains("127.0.0.1:3128"), mediated.toString());
        Route off = egress(io.aasm.ports.transport.TransportMediation.off("--no-proxy"), pypi);
        assertTrue(((Route.Unsupported) off).reason().contains("not mediated (--no-proxy)"), off.toString());
        Route loopback = egress(MEDIATED, pypi, new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 8080, 8080));
        assertTrue(((Route.Unsupported) loopback).reason().contains("loopback grant"), loopback.toString());
        Route udp = egress(MEDIATED, new EgressGrant(Protocol.UDP, "dns.test", 53, 53));
        assertTrue(((Route.Unsupported) udp).reason().contains("UDP"), udp.toString());
        assertTrue(ContainerRoutes.mediatedPort(new Scope.Egress(List.of(pypi)), MEDIATED).isPresent());
        assertTrue(ContainerRoutes.mediatedPort(new Scope.Egress(List.of()), MEDIATED).isEmpty(), "nothing to relay");
    }

    @Test
    void pinnedNamesNeedAnEgressStatement() {
        ControlRequirement pinned = req(CapabilityDomain.NAME_RESOLUTION, new Scope.PinnedHosts(new TreeMap<>(Map.of(
                "a.test", "127.0.0.1"))));
        assertInstanceOf(Route.Unsupported.class, route(pinned));
        assertInstanceOf(Route.Supported.class, route(pinned, req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain())));
    }

    @Test
    void aSignalGrantNeedsTheHostsPidNamespaceWhichCredentialsAndTheFilesystemRuleOut() {
        ControlRequirement signal = req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of(IpcChannel.SIGNAL)));
        assertInstanceOf(Route.Supported.class, route(signal));
        assertInstanceOf(Route.Unsupported.class, route(signal, req(CapabilityDomain.CREDENTIAL,
                new Scope.Delegated(List.of("PATH")))));
        assertInstanceOf(Route.Unsupported.class, route(signal, req(CapabilityDomain.FILESYSTEM_READ,
                new Scope.Paths(List.of("/usr")))));
    }

    @Test
    void anAbstractSocketGrantNeedsTheHostsNetworkNamespaceWhichAStatedNetworkRulesOut() {
        ControlRequirement abs = req(CapabilityDomain.IPC, new Scope.IpcGrants(Set.of(IpcChannel.ABSTRACT_UNIX)));
        assertInstanceOf(Route.Supported.class, route(abs));
        assertInstanceOf(Route.Unsupported.class, route(abs, req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain())));
        ContainerRoutes engineListens = new ContainerRoutes(SyscallTable.bundled(), false, () -> List.of("@/containerd-shim/x"));
        Route r = engineListens.route(abs, List.of(abs));
        assertTrue(((Route.Unsupported) r).reason().contains("@/containerd-shim/x"));
    }

    @Test
    void unknownSyscallNamesAreRefusedByName() {
        Route r = route(req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("no_such_call"))));
        assertTrue(((Route.Unsupported) r).reason().contains("no_such_call"));
        assertInstanceOf(Route.Supported.class, route(req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY,
                List.of("ptrace")))));
    }

    @Test
    void aPinnedImageSaysItsFilesAreReadableToo() {
        ContainerRoutes pinned = new ContainerRoutes(Optional.empty(), true, List::of);
        Route.Supported r = (Route.Supported) pinned.general(CapabilityDomain.FILESYSTEM_READ);
        assertTrue(r.limitations().stream().anyMatch(l -> l.contains("pinned image's own files")));
    }
}
