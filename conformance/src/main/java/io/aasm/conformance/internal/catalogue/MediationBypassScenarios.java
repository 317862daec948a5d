package io.aasm.conformance.internal.catalogue;

import static io.aasm.conformance.internal.catalogue.StandIns.grant;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Sinks;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.PlatformBoundary;
import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The "mediation" family, part two: a program that goes around the proxy. The policy grants a host by name (so
 * the launch is mediated) and the action ignores the proxy variables: a direct TCP connection to the stand-in
 * host's address, a DNS query over UDP to a resolver the suite owns, MPTCP, TCP Fast Open. None has a route out
 * of a mediated boundary. The controls: the UDP port granted as a loopback grant (the boundary relays it); for
 * the others no narrower grant could permit a connection that bypasses the proxy, so the control removes the
 * network statement (egress unrestricted and unmediated), as the suite does wherever the policy language has no
 * narrower grant.
 *
 * <p>A container or a virtual machine has a network of its own whatever the policy (its 127.0.0.0/8 is its own):
 * the stand-ins on this host's loopback are out of its reach under every policy, so no control can show the way
 * around the proxy arriving there, and its cells are {@code cannot-host}. Such a backend shows the pair with its
 * own control instead (aasm-container: the same container in the host's network namespace, in its probe and in
 * {@code MediatedEgressTest}).
 */
final class MediationBypassScenarios {
    private MediationBypassScenarios() {
    }

    static List<Scenario> all() {
        return List.of(
                tcp("med-direct-ignoring-proxy", "connect straight to a granted host's address, ignoring the proxy "
                        + "variables", "tcp", Optional.empty()),
                udpDns(),
                tcp("med-mptcp-around-proxy", "connect with MPTCP to a granted host's address, around the proxy",
                        "mptcp", Optional.of("socket mptcp: errno=EPERM")),
                tcp("med-tfo-around-proxy", "send with TCP Fast Open (sendto MSG_FASTOPEN) to a granted host's address,"
                        + " around the proxy", "tfo-sendto", Optional.of("sendto fastopen: errno=EPERM")));
    }

    static final Map<PlatformBoundary, String> OWN_NETWORK = Map.of(
            PlatformBoundary.CONTAINER, ownNetwork("a container"),
            PlatformBoundary.SEPARATE_KERNEL, ownNetwork("a virtual machine"));

    private static String ownNetwork(String what) {
        return what + " has a network of its own under every policy (its 127.0.0.0/8 is its own), so the suite's "
                + "stand-ins on this host's loopback are out of its reach whether or not the policy grants the way "
                + "around the proxy: no control can show an effect here; the backend's own probe pair shows it with "
                + "its own control";
    }

    private static String mediated(Bench b, String name, int port) {
        return StandIns.policy(b, name, grant("index.test", port), StandIns.PINS);
    }

    /** The control: no network statement at all (the wall-clock ceiling keeps it a confined launch). */
    private static String unrestricted(Bench b, String name) {
        return b.policy(name).section(b.filesystem(List.of(), List.of())).text();
    }

    private static Scenario tcp(String name, String summary, String verb, Optional<String> signature) {
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS, summary, b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            if (verb.equals("mptcp") && !Outside.run(List.of(b.actor(), "socket-probe", "2", "1", "262"))
                    .startsWith("ok")) {
                return new Staging.CannotHost("MPTCP is not enabled on this host (net.mptcp.enabled, or no kernel support)");
            }
            Sinks.Sink target = Sinks.tcp(InetAddress.getByName(StandIns.INDEX), 0);
            Staged.Observation effect = () -> {
                String got = target.drain();
                return got.isEmpty() ? Effect.absent("nothing reached the granted host's address directly")
                        : Effect.happened(got + " reached the granted host's address around the proxy");
            };
            return new Staging.Ready(new Staged(mediated(b, name, target.port()), unrestricted(b, name),
                    "network removed (egress unrestricted and not mediated)", b.actor() + " " + verb + " "
                    + StandIns.INDEX + " " + target.port() + " exfil", effect, b::clearOut, target::close, signature),
                    OWN_NETWORK);
        });
    }

    private static Scenario udpDns() {
        String name = "med-udp-dns-around-proxy";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS,
                "send a DNS query carrying a secret over UDP to a resolver the suite owns, around the proxy", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Sinks.Sink resolver;
                    try {
                        resolver = Sinks.udp(InetAddress.getLoopbackAddress());
                    } catch (IOException e) {
                        return new Staging.CannotHost("cannot bind a UDP resolver on 127.0.0.1: " + e.getMessage());
                    }
                    Staged.Observation effect = () -> {
                        String got = resolver.drain();
                        return got.isEmpty() ? Effect.absent("no query reached the resolver")
                                : Effect.happened(got + " reached the resolver");
                    };
                    // no name_resolution here: a UDP grant (the control's) leaves nothing to pin names with
                    String granted = grant("index.test", 443);
                    String udp = "{host: loopback, port: " + resolver.port() + ", protocol: udp}";
                    return new Staging.Ready(new Staged(
                            b.policy(name).section(b.filesystem(List.of(), List.of()))
                                    .section("network:\n  egress: {allow: [" + granted + "]}\n").text(),
                            b.policy(name).section(b.filesystem(List.of(), List.of()))
                                    .section("network:\n  egress: {allow: [" + granted + ", " + udp + "]}\n").text(),
                            "network.egress += " + udp, b.actor() + " dns 127.0.0.1 " + resolver.port() + " "
                            + b.tools().canary(), effect, b::clearOut, resolver::close, Optional.empty()), OWN_NETWORK);
                });
    }
}
