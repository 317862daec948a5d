package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pinned hosts visible inside; names outside the pinned table (even in the host's /etc/hosts) are not. */
class NameResolutionConfinementTest {
    @TempDir
    Path tmp;

    @Test
    void pinnedNamesResolveAndOthersDoNot() throws Exception {
        Harness h = Harness.shared();
        String hostName = Files.readAllLines(Path.of("/etc/hosts")).stream().map(String::trim)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).map(l -> l.split("\\s+"))
                .filter(f -> f.length > 1 && !f[1].equals("localhost") && !f[1].startsWith("ip6-")).map(f -> f[1])
                .findFirst().orElse(null);
        Assumptions.assumeTrue(hostName != null,
                "environment cannot host this check: /etc/hosts has no name besides localhost");
        Path pinned = tmp.resolve("pinned");
        Path outside = tmp.resolve("outside");
        String action = "getent hosts aasm-pinned.test > " + pinned + "; getent hosts " + hostName + " > " + outside;
        var table = new TreeMap<>(Map.of("aasm-pinned.test", "127.0.0.77"));
        // Names are pinned only together with an egress statement that reaches no resolver.
        var noEgress = req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain());
        h.run(Harness.grandchild("/bin/sh", action, tmp, Map.of(), List.of(req(CapabilityDomain.NAME_RESOLUTION,
                new Scope.PinnedHosts(table)), noEgress)));
        assertTrue(Files.readString(pinned).contains("127.0.0.77"), "pinned name resolves inside");
        assertFalse(Files.readString(outside).contains(hostName), "a name outside the pinned table must not resolve");
        // Control without the name requirement (egress as before): the host's own table answers.
        h.run(Harness.grandchild("/bin/sh", action, tmp, Map.of(), List.of(noEgress)));
        assertTrue(Files.readString(outside).contains(hostName), "control: the host table resolves " + hostName);
        assertFalse(Files.readString(pinned).contains("127.0.0.77"));
    }

    @Test
    void withoutAnEgressStatementOrWithAResolverPortNamesCannotBePinned() {
        Harness h = Harness.shared();
        var pin = req(CapabilityDomain.NAME_RESOLUTION, new Scope.PinnedHosts(new TreeMap<>(Map.of("a.test", "127.0.0.7"))));
        var dnsOverTcp = req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                new io.aasm.ports.policy.EgressGrant(io.aasm.ports.policy.Protocol.TCP, "0.0.0.0/0", 53, 53),
                new io.aasm.ports.policy.EgressGrant(io.aasm.ports.policy.Protocol.TCP, "::/0", 53, 53))));
        for (List<io.aasm.ports.policy.ControlRequirement> reqs : List.of(List.of(pin), List.of(pin, dnsOverTcp))) {
            var report = h.backend.plan(Harness.grandchild("/bin/sh", "true", tmp, Map.of(), reqs)).capabilities()
                    .reportFor(CapabilityDomain.NAME_RESOLUTION).orElseThrow();
            assertFalse(report.canPrevent(), reqs.toString());
        }
        var report = h.backend.plan(Harness.grandchild("/bin/sh", "true", tmp, Map.of(), List.of(pin,
                req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain())))).capabilities()
                .reportFor(CapabilityDomain.NAME_RESOLUTION).orElseThrow();
        assertTrue(report.canPrevent(), "control: with egress denied the pin can prevent: " + report);
    }
}
