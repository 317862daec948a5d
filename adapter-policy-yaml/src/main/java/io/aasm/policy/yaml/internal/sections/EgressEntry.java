package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.rules.Checked;
import io.aasm.policy.yaml.internal.rules.HostRules;
import io.aasm.policy.yaml.internal.rules.Suggest;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One egress allow entry: the word {@code loopback} (TCP, any port), or {@code {host, port | ports,
 * protocol}}. Problems inside a mapping entry are reported at their own key; the returned Bad then
 * carries an empty message so the caller does not report twice.
 */
final class EgressEntry {
    private static final Pattern RANGE = Pattern.compile("([0-9]+)(?:\\s*-\\s*([0-9]+))?");
    private static final List<String> KEYS = List.of("host", "port", "ports", "protocol");
    private static final List<String> PROTOCOLS = List.of("tcp", "udp");
    private static final Checked<EgressGrant> REPORTED = Checked.bad("", "");

    private EgressEntry() {
    }

    static Checked<EgressGrant> read(YNode item, String where, Fields parent) {
        if (item instanceof YNode.Scalar s && s.isString()) {
            return s.text().equals(EgressGrant.LOOPBACK)
                    ? Checked.ok(new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 0, 65535))
                    : Checked.bad(where + ": a bare entry may only be 'loopback', found '" + s.text() + "'",
                            "write {host: " + s.text() + ", port: 443}");
        }
        if (item instanceof YNode.Rejected) {
            return REPORTED;
        }
        Optional<Fields> fields = Fields.of(item, where, parent.problems(), "{host: example.com, port: 443}");
        if (fields.isEmpty()) {
            return REPORTED;
        }
        Fields f = fields.get();
        f.allowOnly(KEYS);
        int before = f.problems().count();
        String[] host = {null};
        if (f.entry("host").isEmpty()) {
            f.problems().at(item, where + " has no host", "add host: loopback, an address, a CIDR block or a name");
        }
        var hostNode = f.string("host", "host: example.com");
        if (hostNode.isPresent()) {
            HostRules.egressHost(hostNode.get().text()).then(h -> host[0] = h,
                    (message, hint) -> f.problems().at(hostNode.get(), message, hint));
        }
        Protocol protocol = protocol(f);
        int[] range = ports(f, where);
        if (f.problems().count() != before || host[0] == null || range == null) {
            return REPORTED;
        }
        return Checked.ok(new EgressGrant(protocol, host[0], range[0], range[1]));
    }

    private static Protocol protocol(Fields f) {
        return f.string("protocol", "protocol: tcp").map(s -> {
            if (s.text().equals("udp")) {
                return Protocol.UDP;
            }
            if (!s.text().equals("tcp")) {
                f.problems().at(s, "unknown protocol '" + s.text() + "'",
                        Suggest.didYouMean(s.text(), PROTOCOLS) + "protocol is tcp or udp");
            }
            return Protocol.TCP;
        }).orElse(Protocol.TCP);
    }

    /** {from, to}; any port when neither key is present; null after a reported problem. */
    private static int[] ports(Fields f, String where) {
        var port = f.entry("port");
        var ports = f.entry("ports");
        if (port.isPresent() && ports.isPresent()) {
            f.problems().at(ports.get(), where + " has both port and ports", "use port: N or ports: \"A-B\", not both");
            return null;
        }
        if (port.isPresent()) {
            YNode v = port.get().value();
            if (!(v instanceof YNode.Scalar s) || s.kind() != YNode.ScalarKind.INTEGER) {
                f.problems().at(v, where + ".port must be an integer, found " + v.describe(),
                        "write port: 443, or ports: \"8000-8100\" for a range");
                return null;
            }
            Integer n = portNumber(s.text(), s, f);
            return n == null ? null : new int[] {n, n};
        }
        if (ports.isPresent()) {
            YNode v = ports.get().value();
            if (!(v instanceof YNode.Scalar s)
                    || (s.kind() != YNode.ScalarKind.STRING && s.kind() != YNode.ScalarKind.INTEGER)) {
                f.problems().at(v, where + ".ports must be a range string, found " + v.describe(),
                        "write ports: \"8000-8100\"");
                return null;
            }
            Matcher m = RANGE.matcher(s.text().trim());
            if (!m.matches()) {
                f.problems().at(s, "'" + s.text() + "' is not a port range",
                        "write ports: \"8000-8100\" or ports: \"443\"");
                return null;
            }
            Integer from = portNumber(m.group(1), s, f);
            Integer to = m.group(2) == null ? from : portNumber(m.group(2), s, f);
            if (from == null || to == null) {
                return null;
            }
            if (from > to) {
                f.problems().at(s, "port range '" + s.text() + "' is reversed",
                        "write the lower port first: \"" + to + "-" + from + "\"");
                return null;
            }
            return new int[] {from, to};
        }
        return new int[] {0, 65535};
    }

    private static Integer portNumber(String digits, YNode at, Fields f) {
        if (!digits.matches("[0-9]+")) {
            f.problems().at(at, "'" + digits + "' is not a plain decimal port", "write the port in decimal, e.g. 443");
            return null;
        }
        if (digits.length() > 6 || Integer.parseInt(digits) < 1
                || Integer.parseInt(digits) > 65535) {
            f.problems().at(at, "port " + digits + " is out of range", "ports are 1..65535; omit port for any port");
            return null;
        }
        return Integer.parseInt(digits);
    }
}
