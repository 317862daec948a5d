package io.aasm.backend.sandlock.internal.lower;

import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/** Egress grants to {@code --net-allow=tcp://host:ports} specs (contract §2, endpoint grammar v0.8.0+). */
final class EgressLowering {
    /** Sandlock's grammar lists ports, not ranges; a longer range would be a very long command line. */
    static final int MAX_LISTED_PORTS = 64;
    private static final String HOST_NAME = "[A-Za-z0-9]([A-Za-z0-9.-]{0,252})";
    private static final String IPV4_OR_CIDR = "\\d{1,3}(\\.\\d{1,3}){3}(/\\d{1,2})?";
    private static final String IPV6 = "[0-9A-Fa-f:.]+";

    private EgressLowering() {
    }

    static DomainLowering lower(Scope s) {
        if (s instanceof Scope.WholeDomain) {
            return new DomainLowering.Flags(List.of(), List.of("no --net-allow rule: sandlock's network default is"
                    + " fail-closed (TCP connect/bind denied by Landlock, UDP/ICMP sockets by seccomp)"));
        }
        if (!(s instanceof Scope.Egress e)) {
            return RequirementLowerer.mismatch(s);
        }
        List<String> flags = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        if (e.grants().isEmpty()) {
            steps.add("no --net-allow rule: sandlock's network default is fail-closed");
        }
        for (EgressGrant g : e.grants()) {
            String ports;
            if (g.anyPort()) {
                ports = "*";
            } else if (g.portTo() - g.portFrom() + 1 > MAX_LISTED_PORTS) {
                return new DomainLowering.Inexpressible("port range " + g.portFrom() + "-" + g.portTo()
                        + " is wider than " + MAX_LISTED_PORTS + " ports; sandlock 0.8.6 takes port lists, not ranges");
            } else {
                StringJoiner j = new StringJoiner(",");
                for (int p = g.portFrom(); p <= g.portTo(); p++) {
                    j.add(Integer.toString(p));
                }
                ports = j.toString();
            }
            List<String> hosts;
            if (g.loopbackOnly()) {
                hosts = List.of("127.0.0.0/8", "[::1]");
            } else if (g.host().matches(IPV4_OR_CIDR) || (g.host().matches(HOST_NAME) && !g.host().contains(".."))) {
                hosts = List.of(g.host());
            } else if (g.host().contains(":") && g.host().matches(IPV6)) {
                hosts = List.of("[" + g.host() + "]");
            } else {
                return new DomainLowering.Inexpressible("egress host '" + g.host() + "' is not an IP address, IPv4"
                        + " CIDR or host name sandlock 0.8.6 documents (IPv6 prefixes are not in its grammar)");
            }
            for (String h : hosts) {
                String flag = "--net-allow=" + g.protocol().token() + "://" + h + ":" + ports;
                flags.add(flag);
                steps.add(flag + (h.matches("[0-9\\[].*") ? "" : " (host name resolved once at start and pinned)"));
            }
        }
        return new DomainLowering.Flags(flags, steps);
    }
}
