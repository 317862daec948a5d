package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.ActorSink;
import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Sinks;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Protocol variants around an egress grant. Every policy grants one TCP port for every destination
 * ({@code 0.0.0.0/0} and {@code ::/0}: the only port grant a Landlock port rule can hold exactly) to a
 * service the suite owns; the action reaches another listener the suite owns through a protocol or send
 * path other than TCP {@code connect()}. The control grants the target's port (or all of UDP) too. No
 * grant opens MPTCP, SCTP, Fast Open or packet sockets, so a backend that refuses them outright is
 * recognised by the action's EPERM at that step. Every target is an address of this host.
 */
final class ProtocolScenarios {
    private ProtocolScenarios() {
    }

    static List<Scenario> all() {
        return List.of(
                tcp("surr-net-mptcp-connect", "connect with MPTCP (IPPROTO_MPTCP) to a port the grant does not list",
                        "mptcp", "socket mptcp: errno=EPERM", Optional.empty()),
                tcp("surr-net-tfo-sendto", "send to an ungranted port with TCP Fast Open (sendto MSG_FASTOPEN, no connect)",
                        "tfo-sendto", "sendto fastopen: errno=EPERM", Optional.empty()),
                tcp("surr-net-tcp-fastopen-connect", "set TCP_FASTOPEN_CONNECT, then connect and write to an ungranted port",
                        "tfo-connect", "setsockopt fastopen_connect: errno=EPERM", Optional.empty()),
                tcp("surr-net-sctp-connect", "connect with SCTP to a port the grant does not list", "sctp",
                        "socket sctp: errno=EPERM", Optional.of(132)),
                packet(), tcpResolver());
    }

    static String everywhere(int port, String protocol) {
        String p = protocol.equals("udp") ? "protocol: udp" : "port: " + port;
        return "{host: 0.0.0.0/0, " + p + "}, {host: '::/0', " + p + "}";
    }

    private static Staging stage(Bench b, String name, Sinks.Sink target, String script, String controlEntries,
                                 String signature) throws IOException {
        Sinks.Sink granted = Sinks.tcp(NetworkScenarios.LOOPBACK, 0);
        String base = everywhere(granted.port(), "tcp");
        String hostile = b.policy(name).section("network:\n  egress:\n    allow: [" + base + "]\n").text();
        String control = b.policy(name).section("network:\n  egress:\n    allow: [" + base + ", " + controlEntries
                + "]\n").text();
        Staged.Observation effect = () -> {
            String got = target.drain();
            granted.drain();
            return got.isEmpty() ? Effect.absent("nothing reached the listener on port " + target.port())
                    : Effect.happened(got + " reached the listener on port " + target.port());
        };
        Staged.Chore cleanup = () -> {
            target.close();
            granted.close();
        };
        // the Landlock port route is under test (mediation would route these grants through the proxy instead)
        return new Staging.Ready(new Staged(hostile, control, "network.egress += " + controlEntries, script, effect,
                b::clearOut, cleanup, Optional.of(signature)).withoutMediation());
    }

    /** {@code needsProtocol}: an IP protocol this host must create sockets of (else it cannot host the scenario). */
    private static Scenario tcp(String name, String summary, String verb, String signature,
                                Optional<Integer> needsProtocol) {
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS, summary, b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            if (needsProtocol.isPresent()) {
                String probe = Outside.run(List.of(b.actor(), "socket-probe", "2", "1", needsProtocol.get().toString()));
                if (!probe.startsWith("ok")) {
                    return new Staging.CannotHost("this host creates no socket of IP protocol " + needsProtocol.get()
                            + " (" + verb + "): " + probe.strip());
                }
                Sinks.Sink target = ActorSink.sctp(b.actor(), b.dir("sctp"));
                return stage(b, name, target, b.actor() + " sctp 127.0.0.1 " + target.port() + " exfil",
                        everywhere(target.port(), "tcp"), signature);
            }
            if (verb.equals("mptcp") && !Outside.run(List.of(b.actor(), "socket-probe", "2", "1", "262")).startsWith("ok")) {
                return new Staging.CannotHost("MPTCP is not enabled on this host (net.mptcp.enabled, or no kernel support)");
            }
            Sinks.Sink target = Sinks.tcp(NetworkScenarios.LOOPBACK, 0);
            return stage(b, name, target, b.actor() + " " + verb + " 127.0.0.1 " + target.port() + " exfil",
                    everywhere(target.port(), "tcp"), signature);
        });
    }

    /**
     * A hand-made Ethernet frame on an AF_INET SOCK_PACKET socket (the obsolete packet interface): UDP to a
     * listener on a non-loopback address of this host, injected on lo. Needs CAP_NET_RAW even unconfined.
     */
    private static Scenario packet() {
        String name = "surr-net-sock-packet-udp";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS,
                "inject a hand-made UDP datagram on an AF_INET SOCK_PACKET socket", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    if (!Outside.holdsCapabilities()) {
                        return new Staging.CannotHost("packet sockets need CAP_NET_RAW even unconfined: run the suite"
                                + " as root to host this check");
                    }
                    Optional<InetAddress> local = NetworkScenarios.localNonLoopback();
                    String rp = Trees.read(Path.of("/proc/sys/net/ipv4/conf/all/rp_filter")).strip()
                            + Trees.read(Path.of("/proc/sys/net/ipv4/conf/lo/rp_filter")).strip();
                    if (local.isEmpty() || rp.contains("1")) {
                        return new Staging.CannotHost(local.isEmpty() ? "no non-loopback IPv4 address to listen on"
                                : "strict reverse-path filtering (rp_filter 1) drops a frame injected on lo");
                    }
                    Sinks.Sink target = Sinks.udp(local.get());
                    // a documentation-range source: a local or loopback one makes the frame a martian on lo
                    return stage(b, name, target, b.actor() + " packet-udp 198.51.100.77 " + local.get().getHostAddress()
                            + " " + target.port() + " exfil", everywhere(0, "udp"), "socket packet: errno=EPERM");
                });
    }

    /**
     * Pinned name resolution, egress not stated: a DNS query over TCP to the resolver address the C library
     * falls back to when resolv.conf names none (127.0.0.1:53), as resolver libraries that ignore
     * nsswitch.conf do when they choose TCP. The suite listens there itself (root only, port 53 free).
     */
    private static Scenario tcpResolver() {
        String name = "surr-name-tcp-loopback-resolver";
        return new Scenario(name, CapabilityDomain.NAME_RESOLUTION,
                "query an unpinned name over TCP from a resolver on 127.0.0.1:53", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Sinks.Sink resolver;
                    try {
                        resolver = Sinks.tcp(NetworkScenarios.LOOPBACK, 53);
                    } catch (IOException e) {
                        return new Staging.CannotHost("the suite cannot listen on 127.0.0.1:53 (" + e.getMessage()
                                + "; it needs root and a free port 53)");
                    }
                    Staged.Observation effect = () -> {
                        String got = resolver.drain();
                        return got.isEmpty() ? Effect.absent("no query reached 127.0.0.1:53")
                                : Effect.happened(got + " reached the resolver on 127.0.0.1:53");
                    };
                    return new Staging.Ready(new Staged(b.policy(name).section(
                            "network:\n  name_resolution: {hosts: {api.example.test: 127.0.0.1}}\n").text(),
                            b.policy(name).text(), "network.name_resolution removed (resolution unrestricted)",
                            b.actor() + " dns-tcp 127.0.0.1 53 " + b.tools().canary(), effect, b::clearOut,
                            resolver::close, Optional.empty()).withHostOnlyTarget("the suite's resolver on the host's "
                            + "127.0.0.1:53 (TCP)", HostOnlyProbes.loopbackTcp(b.actor(), 53)));
                });
    }
}
