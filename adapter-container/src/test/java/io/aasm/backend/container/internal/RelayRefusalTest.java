package io.aasm.backend.container.internal;

import static io.aasm.backend.container.internal.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.backend.container.internal.runtime.BundledBinary;
import io.aasm.backend.container.internal.runtime.TransportRelay;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.transport.TransportMediation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the transport relay refuses to listen (RELAY.md): a process that is not the named container's, and a
 * container that shares this host's network namespace (a listener there would be the host's). Control: the same
 * mediated launch in the container's own namespace reaches the session (MediatedEgressTest; here once more).
 */
class RelayRefusalTest {
    @TempDir
    Path tmp;

    @Test
    void aProcessOutsideTheNamedContainerIsRefused() throws Exception {
        Harness.requireEngine();
        Path relay = BundledBinary.embedded(Files.createDirectories(tmp.resolve("state")), BundledBinary.RELAY).verified();
        try (RelayStandIn session = new RelayStandIn(tmp, 3128)) {
            IOException e = assertThrows(IOException.class, () -> TransportRelay.open(relay, ProcessHandle.current().pid(),
                    "0123456789abcdef0123", 3128, session.relay().orElseThrow()));
            assertTrue(e.getMessage().contains("container's network namespace"), e.getMessage());
            assertEquals(List.of(), session.received(0));
        }
    }

    @Test
    void aContainerInTheHostsNetworkIsRefusedAndNothingRuns() throws Exception {
        ContainerBackend b = Harness.shared().backend;
        Path ran = tmp.resolve("ran");
        ExecutionSpec spec = new ExecutionSpec("/bin/sh", List.of("-c", "touch " + ran), tmp.toString(),
                IdentityRef.anonymous(), List.of(req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new EgressGrant(Protocol.TCP, "pypi.test", 443, 443))))), Map.of("PATH", "/usr/bin:/bin"),
                CredentialPosture.none(), new Stdio.Inherit(), List.of(), TransportMediation.mediated(3128, "test"));
        try (RelayStandIn session = new RelayStandIn(tmp, 3128)) {
            Optional<Launches.Mediated> mediated = Optional.of(new Launches.Mediated(session.relay().orElseThrow(),
                    session.environment()));
            LaunchException e = assertThrows(LaunchException.class, () -> b.runDirect(spec,
                    ContainerPlan::withHostNetwork, mediated));
            assertTrue(e.getMessage().contains("shares this network namespace"), e.getMessage());
            assertTrue(!Files.exists(ran), "the program never started");
            b.runDirect(spec, java.util.function.UnaryOperator.identity(), mediated);
            assertTrue(Files.exists(ran), "control: in its own namespace the same launch runs");
        }
    }
}
