package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import java.util.List;
import java.util.Optional;

/**
 * Decides whether a list of egress grants means exactly what the port route installs. Landlock
 * matches the TCP port of a connect, never its destination, and seccomp cannot see UDP destinations
 * at all. So a grant is exact only when it already covers every destination: the TCP port (or the
 * UDP protocol) granted to both 0.0.0.0/0 and ::/0. A grant narrower than that, such as
 * {@code {host: loopback, port: Q}}, would silently widen to every address and must not be claimed.
 */
final class EgressCoverage {
    static final String ALL_V4 = "0.0.0.0/0";
    static final String ALL_V6 = "::/0";

    private EgressCoverage() {
    }

    /** Most loopback ports relayed out of a network namespace (each costs two listeners in init). */
    static final int MAX_RELAY_PORTS = 64;

    /** Non-empty and every grant (TCP or UDP) is to loopback: the network namespace + relay route applies. */
    static boolean loopbackOnly(List<EgressGrant> grants) {
        return !grants.isEmpty() && grants.stream().allMatch(EgressGrant::loopbackOnly);
    }

    /**
     * The distinct loopback ports of a protocol to relay, or empty when a range is open-ended or there are more
     * than {@link #MAX_RELAY_PORTS} of them.
     */
    static Optional<List<Integer>> relayPorts(List<EgressGrant> grants, Protocol protocol) {
        java.util.TreeSet<Integer> ports = new java.util.TreeSet<>();
        for (EgressGrant g : grants.stream().filter(x -> x.protocol() == protocol).toList()) {
            if (g.portFrom() == 0 || g.portTo() - g.portFrom() + 1 > MAX_RELAY_PORTS) {
                return Optional.empty();
            }
            for (int p = g.portFrom(); p <= g.portTo(); p++) {
                ports.add(p);
            }
        }
        return ports.size() > MAX_RELAY_PORTS ? Optional.empty() : Optional.of(List.copyOf(ports));
    }

    /** Empty when the port route enforces the grants exactly; else the sentence for the refusal. */
    static Optional<String> inexact(List<EgressGrant> grants, int maxPortRules) {
        for (EgressGrant g : grants) {
            if (g.protocol() == Protocol.UDP) {
                if (!covered(grants, Protocol.UDP, 0, 65535)) {
                    return Optional.of("a UDP grant to host '" + g.host() + "' cannot be enforced exactly: seccomp "
                            + "sees no UDP destination, so it would allow UDP to every host and port. aasm-native "
                            + "enforces UDP only as all-or-nothing: grant {host: " + ALL_V4 + ", ports: \"0-65535\", "
                            + "protocol: udp} and {host: '" + ALL_V6 + "', ports: \"0-65535\", protocol: udp}, drop "
                            + "the UDP grant, or set network.egress posture: optional to run without this guarantee");
                }
                continue;
            }
            boolean allDest = g.host().equals(ALL_V4) || g.host().equals(ALL_V6);
            if (!g.loopbackOnly() && !allDest) {
                return Optional.of("egress to host '" + g.host() + "' cannot be enforced: Landlock network rules "
                        + "match TCP ports only, not destinations. aasm-native enforces: no egress (allow: []) or a "
                        + "TCP port open to every destination ({host: " + ALL_V4 + ", port: N} and {host: '" + ALL_V6
                        + "', port: N})");
            }
            if (g.anyPort() || g.portTo() - g.portFrom() + 1 > maxPortRules) {
                return Optional.of("a TCP grant of ports " + g.portFrom() + "-" + g.portTo() + " is too wide to "
                        + "express as port rules (max " + maxPortRules + "); it would amount to all egress");
            }
            if (!covered(grants, Protocol.TCP, g.portFrom(), g.portTo())) {
                String ports = g.portFrom() == g.portTo() ? "port: " + g.portFrom()
                        : "ports: \"" + g.portFrom() + "-" + g.portTo() + "\"";
                return Optional.of(g.loopbackOnly()
                        ? "a TCP grant {host: loopback, " + ports + "} cannot be enforced here: mixed with other "
                        + "grants, or without network namespaces, it would be a Landlock port rule, which matches "
                        + "the port, not the destination, so the program could reach that port on every address "
                        + "(other addresses of this host, 169.254.169.254, remote hosts). aasm-native enforces "
                        + "egress exactly as: no egress (allow: []); loopback TCP ports alone (at most "
                        + MAX_RELAY_PORTS + ", relayed out of a network namespace; needs namespaces); or a TCP port "
                        + "open to every destination ({host: " + ALL_V4 + ", " + ports + "} and {host: '" + ALL_V6
                        + "', " + ports + "}). Change the grants to one of these, or set network.egress posture: "
                        + "optional to run without this guarantee"
                        : "a TCP grant to '" + g.host() + "' is enforced as the port on every destination of both "
                        + "families; grant {host: " + ALL_V4 + ", " + ports + "} and {host: '" + ALL_V6 + "', "
                        + ports + "} together");
            }
        }
        return Optional.empty();
    }

    /** Every port of the range is granted to 0.0.0.0/0 and to ::/0 for the protocol. */
    private static boolean covered(List<EgressGrant> grants, Protocol p, int from, int to) {
        for (int port = from; port <= to; port++) {
            if (!grants(grants, p, ALL_V4, port) || !grants(grants, p, ALL_V6, port)) {
                return false;
            }
        }
        return true;
    }

    private static boolean grants(List<EgressGrant> grants, Protocol p, String host, int port) {
        return grants.stream().anyMatch(g -> g.protocol() == p && g.host().equals(host)
                && g.portFrom() <= port && port <= g.portTo());
    }
}
