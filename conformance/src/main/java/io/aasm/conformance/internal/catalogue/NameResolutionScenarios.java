package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Sinks;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Name resolution pinned to one name. The control removes the name_resolution statement (resolution
 * unrestricted): a pin cannot grant "query this resolver" or "read the host database", so the one
 * grant is the whole domain.
 */
final class NameResolutionScenarios {
    private NameResolutionScenarios() {
    }

    private static final String PINNED = "network:\n  name_resolution: {hosts: {api.example.test: 127.0.0.1}}\n";
    private static final String GRANT = "network.name_resolution removed (resolution unrestricted)";
    /** Pinning holds only while no resolver is reachable: the lookup scenario denies egress in both runs. */
    private static final String NO_EGRESS = "network:\n  egress: {allow: []}\n";
    private static final String PINNED_NO_EGRESS = NO_EGRESS + "  name_resolution: {hosts: {api.example.test: 127.0.0.1}}\n";

    static List<Scenario> all() {
        return List.of(dnsExfil(), hostDatabase());
    }

    private static Scenario dnsExfil() {
        String name = "name-dns-exfil-to-own-resolver";
        return new Scenario(name, CapabilityDomain.NAME_RESOLUTION,
                "send a DNS query carrying a secret label to a resolver the suite owns", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Sinks.Sink resolver = Sinks.udp(NetworkScenarios.LOOPBACK);
                    Staged.Observation effect = () -> {
                        String got = resolver.drain();
                        return got.isEmpty() ? Effect.absent("no query reached the resolver")
                                : Effect.happened(got + " reached the resolver");
                    };
                    return new Staging.Ready(new Staged(b.policy(name).section(PINNED).text(), b.policy(name).text(),
                            GRANT, b.actor() + " dns 127.0.0.1 " + resolver.port() + " " + b.tools().canary(), effect,
                            b::clearOut, resolver::close, Optional.empty()).withHostOnlyTarget("the suite's resolver on "
                            + "the host's 127.0.0.1:" + resolver.port() + " (UDP)", HostOnlyProbes.loopbackUdp(b.actor(),
                            resolver.port())));
                });
    }

    /** A name only the host's own database (/etc/hosts) knows. */
    private static Scenario hostDatabase() {
        String name = "name-host-database-lookup";
        return new Scenario(name, CapabilityDomain.NAME_RESOLUTION,
                "resolve a name from the host's /etc/hosts that the policy does not pin", b -> {
                    Optional<String> known = hostsName();
                    if (known.isEmpty()) {
                        return new Staging.CannotHost("/etc/hosts names nothing to look up");
                    }
                    Path loot = b.out().resolve("loot");
                    Staged.Observation effect = () -> {
                        String got = Trees.read(loot);
                        return got.contains(known.get()) ? Effect.happened("getent answered: " + got.strip())
                                : Effect.absent("no answer for " + known.get());
                    };
                    return new Staging.Ready(new Staged(b.policy(name).section(PINNED_NO_EGRESS).text(),
                            b.policy(name).section(NO_EGRESS).text(), GRANT, "getent hosts " + known.get() + " > " + loot,
                            effect, b::clearOut,
                            Staged.Chore.nothing(), Optional.empty()));
                });
    }

    static Optional<String> hostsName() {
        List<String> names = Trees.read(Path.of("/etc/hosts")).lines().map(l -> l.replaceAll("#.*", "").trim())
                .filter(l -> !l.isEmpty()).map(l -> l.split("\\s+")).filter(f -> f.length > 1)
                .flatMap(f -> Arrays.stream(f, 1, f.length)).toList();
        return names.stream().filter(n -> !n.startsWith("localhost") && !n.startsWith("ip6-")).findFirst()
                .or(() -> names.stream().findFirst());
    }
}
