package io.aasm.conformance.internal.catalogue;

import io.aasm.conformance.internal.fixture.Bench;
import io.aasm.conformance.internal.fixture.Outside;
import io.aasm.conformance.internal.fixture.Sinks;
import io.aasm.conformance.internal.fixture.Trees;
import io.aasm.ports.capability.CapabilityDomain;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Egress to listeners the suite owns. Every policy grants one loopback TCP port (a "granted service"
 * the suite also owns); the action aims at a different destination; the effect is any connection or
 * byte reaching the target listener; the control grants that destination. Traffic never leaves the
 * host: every target is an address of this host.
 */
final class NetworkScenarios {
    private NetworkScenarios() {
    }

    static final InetAddress LOOPBACK = address("127.0.0.1");
    static final InetAddress LOOPBACK6 = address("::1");

    static List<Scenario> all() {
        return List.of(
                tcp("net-tcp-unlisted-loopback-port", "connect to a loopback port the policy does not list", "127.0.0.1"),
                tcp("net-tcp-short-form-127-1", "connect to the unlisted port via the short form 127.1", "127.1"),
                tcp("net-tcp-hex-address", "connect to the unlisted port via 0x7f000001", "0x7f000001"),
                tcp("net-tcp-v4-mapped-v6", "connect to the unlisted port via ::ffff:127.0.0.1", "::ffff:127.0.0.1"),
                ipv6(),
                devTcp(),
                udp("net-udp-unlisted-port", "send a UDP datagram to a loopback port the policy does not list", "udp"),
                udp("net-raw-socket-udp", "hand-craft a UDP packet on a raw IP socket (bypasses UDP filters)", "rawudp"),
                otherAddress(),
                metadata());
    }

    static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The granted service plus the target; the control adds {@code controlEntry}. */
    private static Staging stage(Bench b, String name, Sinks.Sink target, String script, String controlEntry,
                                 Sinks.Sink granted, Optional<String> denial) {
        String base = "{host: loopback, port: " + granted.port() + "}";
        String hostile = b.policy(name).section("network:\n  egress:\n    allow: [" + base + "]\n").text();
        String control = b.policy(name).section("network:\n  egress:\n    allow: [" + base + ", " + controlEntry + "]\n")
                .text();
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
        // the boundary's own egress routes are under test here; mediation has scenarios of its own
        return new Staging.Ready(new Staged(hostile, control, "network.egress += " + controlEntry, script, effect,
                b::clearOut, cleanup, denial).withoutMediation());
    }

    private static Scenario tcp(String name, String summary, String spelling) {
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS, summary, b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            Sinks.Sink target = Sinks.tcp(LOOPBACK, 0);
            return stage(b, name, target, b.actor() + " tcp " + spelling + " " + target.port() + " exfil",
                    "{host: loopback, port: " + target.port() + "}", Sinks.tcp(LOOPBACK, 0), Optional.empty());
        });
    }

    private static Scenario ipv6() {
        String name = "net-tcp-ipv6-loopback";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS, "connect to an unlisted port on ::1", b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            Sinks.Sink target;
            try {
                target = Sinks.tcp(LOOPBACK6, 0);
            } catch (IOException e) {
                return new Staging.CannotHost("no IPv6 loopback on this host: " + e.getMessage());
            }
            return stage(b, name, target, b.actor() + " tcp ::1 " + target.port() + " exfil",
                    "{host: loopback, port: " + target.port() + "}", Sinks.tcp(LOOPBACK, 0), Optional.empty());
        });
    }

    private static Scenario devTcp() {
        String name = "net-bash-dev-tcp";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS, "write to bash's /dev/tcp/127.0.0.1/PORT", b -> {
            Optional<String> bash = List.of("/bin/bash", "/usr/bin/bash").stream()
                    .filter(p -> Files.isExecutable(Path.of(p))).findFirst();
            if (bash.isEmpty()) {
                return new Staging.CannotHost("bash is not installed");
            }
            Sinks.Sink target = Sinks.tcp(LOOPBACK, 0);
            return stage(b, name, target, bash.get() + " -c 'echo exfil > /dev/tcp/127.0.0.1/" + target.port() + "'",
                    "{host: loopback, port: " + target.port() + "}", Sinks.tcp(LOOPBACK, 0), Optional.empty());
        });
    }

    private static Scenario udp(String name, String summary, String verb) {
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS, summary, b -> {
            if (b.needsActor().isPresent()) {
                return b.needsActor().get();
            }
            Sinks.Sink target = Sinks.udp(LOOPBACK);
            // no grant opens raw sockets; a backend that refuses them (or UDP) outright says EPERM at socket()
            Optional<String> denial = Optional.of(verb.equals("rawudp") ? "socket raw: errno=EPERM" : "socket: errno=EPERM");
            return stage(b, name, target, b.actor() + " " + verb + " 127.0.0.1 " + target.port() + " exfil",
                    "{host: loopback, port: " + target.port() + ", protocol: udp}", Sinks.tcp(LOOPBACK, 0), denial);
        });
    }

    /**
     * What the actor prints when its own network namespace has no route to the destination: a backend
     * that refuses every grant of a non-loopback host denies it whatever the grant (see the Judge).
     */
    static final String UNROUTABLE = "connect: errno=ENETUNREACH";

    /** The granted port number, but on a non-loopback address of this host. */
    private static Scenario otherAddress() {
        String name = "net-tcp-granted-port-other-address";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS,
                "connect to the granted port number on a non-loopback address of this host", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    Optional<InetAddress> local = localNonLoopback();
                    if (local.isEmpty()) {
                        return new Staging.CannotHost("this host has no non-loopback IPv4 address to listen on");
                    }
                    Sinks.Sink granted = Sinks.tcp(LOOPBACK, 0);
                    Sinks.Sink target;
                    try {
                        target = Sinks.tcp(local.get(), granted.port());
                    } catch (IOException e) {
                        granted.close();
                        return new Staging.CannotHost("cannot listen on " + local.get().getHostAddress() + ":"
                                + granted.port() + ": " + e.getMessage());
                    }
                    String host = local.get().getHostAddress();
                    return stage(b, name, target, b.actor() + " tcp " + host + " " + target.port() + " exfil",
                            "{host: " + host + ", port: " + target.port() + "}", granted, Optional.of(UNROUTABLE));
                });
    }

    static final String METADATA = "169.254.169.254";
    /** Opt-in (root only): put the metadata address on lo for this scenario, then take it off again. */
    static final String ALIAS_PROPERTY = "aasm.conformance.metadata.alias";

    /**
     * Hosted only when 169.254.169.254 is an address of this host, so no packet ever leaves it. The
     * target listens on the granted loopback port number: the SSRF case of a granted local service
     * port that the metadata service also uses.
     */
    private static Scenario metadata() {
        String name = "net-cloud-metadata-address";
        return new Scenario(name, CapabilityDomain.NETWORK_EGRESS,
                "connect to the cloud metadata address 169.254.169.254 on the granted port number", b -> {
                    if (b.needsActor().isPresent()) {
                        return b.needsActor().get();
                    }
                    String nonlocal = Trees.read(Path.of("/proc/sys/net/ipv4/ip_nonlocal_bind")).strip();
                    if (!nonlocal.equals("0")) {
                        return new Staging.CannotHost("ip_nonlocal_bind is '" + nonlocal + "': a listener on " + METADATA
                                + " would not prove the address is local; the suite never sends traffic off the host");
                    }
                    Staged.Chore unalias = Staged.Chore.nothing();
                    if (Boolean.getBoolean(ALIAS_PROPERTY) && !isLocal(METADATA)) {
                        Outside.run(
                                List.of("ip", "addr", "add", METADATA + "/32", "dev", "lo"));
                        unalias = () -> Outside.run(
                                List.of("ip", "addr", "del", METADATA + "/32", "dev", "lo"));
                    }
                    Sinks.Sink granted = Sinks.tcp(LOOPBACK, 0);
                    Sinks.Sink target;
                    try {
                        target = Sinks.tcp(address(METADATA), granted.port());
                    } catch (IOException e) {
                        granted.close();
                        unalias.run();
                        return new Staging.CannotHost(METADATA + " is not an address of this host (" + e.getMessage()
                                + "); the suite never sends traffic off the host (as root, -D" + ALIAS_PROPERTY
                                + "=true hosts it on lo for the run)");
                    }
                    Staging s = stage(b, name, target, b.actor() + " tcp " + METADATA + " " + target.port() + " exfil",
                            "{host: " + METADATA + ", port: " + target.port() + "}", granted, Optional.of(UNROUTABLE));
                    Staged st = ((Staging.Ready) s).staged();
                    return new Staging.Ready(new Staged(st.hostilePolicy(), st.controlPolicy(), st.controlGrant(),
                            st.script(), st.effect(), st.reset(), st.cleanup().andThen(unalias), st.denialSignature())
                            .withoutMediation());
                });
    }

    private static boolean isLocal(String literal) {
        try {
            return NetworkInterface.getByInetAddress(address(literal)) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    static Optional<InetAddress> localNonLoopback() {
        try {
            for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!n.isUp() || n.isLoopback()) {
                    continue;
                }
                for (InetAddress a : Collections.list(n.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLinkLocalAddress() && !a.isLoopbackAddress()) {
                        return Optional.of(a);
                    }
                }
            }
        } catch (SocketException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
