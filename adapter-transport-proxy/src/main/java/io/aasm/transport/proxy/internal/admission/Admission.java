package io.aasm.transport.proxy.internal.admission;

import io.aasm.ports.policy.EgressGrant;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The proxy's policy core, pure but for the resolver it is given. A destination is admitted only by a grant:
 * <ul>
 *   <li>an address literal by an address, block or {@code loopback} grant for its port (a name grant never
 *       admits a literal);</li>
 *   <li>a name by a name grant for its port, dialled at the address the policy pins it to, else at what the
 *       resolver answers (a name no grant names is never resolved, so an ungranted name leaks no query);</li>
 *   <li>a name no grant names but the policy pins, by an address grant of its pinned address.</li>
 * </ul>
 * Special-purpose addresses (loopback, private, link-local, metadata, this host's own, ...) are dialled only
 * when the policy names them on purpose: a pin, or an address/block/{@code loopback} grant narrower than
 * {@code 0.0.0.0/0} and {@code ::/0} (which mean "any public address"). A resolver answer of such an address
 * for a granted name is refused, which is also what defeats DNS rebinding: the proxy dials only what it vetted.
 */
public final class Admission {
    private final List<Rule> rules;
    private final Map<String, InetAddress> pins;
    private final Resolver resolver;
    private final SpecialAddresses special;

    public Admission(List<EgressGrant> grants, SortedMap<String, String> pinnedHosts, Resolver resolver,
                     SpecialAddresses special) {
        this.rules = grants.stream().map(Rule::of).flatMap(Optional::stream).toList();
        Map<String, InetAddress> p = new TreeMap<>();
        pinnedHosts.forEach((name, addr) -> {
            if (Destination.parse(name) instanceof Destination.Name n) {
                Literals.parse(addr).ifPresent(a -> p.put(n.name(), a));
            }
        });
        this.pins = Map.copyOf(p);
        this.resolver = resolver;
        this.special = special;
    }

    public Verdict decide(String asked, int port) {
        if (port < 1 || port > 65535) {
            return refused("port " + port + " is not a TCP port (1-65535)");
        }
        Destination d = Destination.parse(asked);
        if (d instanceof Destination.Malformed m) {
            return refused("malformed destination: " + m.why());
        }
        if (d instanceof Destination.Address a) {
            return address(a.address(), port, false, "");
        }
        String name = ((Destination.Name) d).name();
        Optional<Rule> byName = rules.stream().filter(r -> r.names(name) && r.port(port)).findFirst();
        InetAddress pin = pins.get(name);
        if (byName.isEmpty()) {
            boolean otherPort = rules.stream().anyMatch(r -> r.names(name));
            if (pin != null) {
                Verdict v = address(pin, port, true, " (" + name + " is pinned to " + pin.getHostAddress() + ")");
                if (v instanceof Verdict.Refused) {
                    return refused(otherPort ? "port " + port + " of " + name + " is not granted" : "no grant names "
                            + name + ", nor its pinned address " + pin.getHostAddress() + ", on port " + port);
                }
                return v;
            }
            return refused(otherPort ? "port " + port + " of " + name + " is not granted"
                    : "no grant names " + name + " (the name was not resolved)");
        }
        if (pin != null) {
            return new Verdict.Admitted(List.of(pin), byName.get().written() + " (pinned to " + pin.getHostAddress()
                    + ")");
        }
        return resolved(name, port, byName.get());
    }

    private Verdict resolved(String name, int port, Rule grant) {
        List<InetAddress> answer;
        try {
            answer = resolver.resolve(name);
        } catch (UnknownHostException e) {
            return refused("the granted name " + name + " does not resolve: " + e.getMessage());
        }
        List<InetAddress> ok = new ArrayList<>();
        List<String> refusedKinds = new ArrayList<>();
        for (InetAddress a : answer) {
            Optional<String> kind = special.kind(a);
            if (kind.isEmpty() || explicitlyGranted(a, port)) {
                ok.add(a);
            } else {
                refusedKinds.add(a.getHostAddress() + " is " + article(kind.get()) + " address");
            }
        }
        String all = answer.stream().map(InetAddress::getHostAddress).collect(Collectors.joining(","));
        if (ok.isEmpty()) {
            return new Verdict.Refused(answer.isEmpty() ? "the granted name " + name + " has no address"
                    : "the granted name " + name + " resolves to a special-purpose address (" + String.join("; ",
                    refusedKinds) + "): refused unless the policy names it (an address or CIDR grant, or a "
                    + "name_resolution.hosts pin)", Optional.of(all));
        }
        return new Verdict.Admitted(ok, grant.written());
    }

    private Verdict address(InetAddress a, int port, boolean pinned, String via) {
        Optional<Rule> any = rules.stream().filter(r -> r.covers(a) && r.port(port)).findFirst();
        if (any.isEmpty()) {
            return refused("no grant names " + a.getHostAddress() + " port " + port + via);
        }
        Optional<String> kind = special.kind(a);
        if (kind.isPresent() && !pinned && !explicitlyGranted(a, port)) {
            return new Verdict.Refused(a.getHostAddress() + " is " + article(kind.get()) + " address: "
                    + any.get().written() + " means any public address; name it with a narrower grant",
                    Optional.of(a.getHostAddress()));
        }
        Rule r = kind.isPresent() && !pinned ? rules.stream().filter(x -> x.covers(a) && x.port(port) && x.explicit())
                .findFirst().orElseThrow() : any.get();
        return new Verdict.Admitted(List.of(a), r.written() + via);
    }

    private boolean explicitlyGranted(InetAddress a, int port) {
        return rules.stream().anyMatch(r -> r.covers(a) && r.port(port) && r.explicit());
    }

    private static String article(String kind) {
        return ("aeiou".indexOf(kind.charAt(0)) >= 0 ? "an " : "a ") + kind;
    }

    private static Verdict refused(String reason) {
        return new Verdict.Refused(reason, Optional.empty());
    }
}
