package io.aasm.policy.yaml.internal.sections;

import io.aasm.policy.yaml.internal.rules.HostRules;
import io.aasm.policy.yaml.internal.tree.YNode;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Scope;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/** {@code network.egress} (destinations) and {@code network.name_resolution} (a pinned host table). */
public final class NetworkSection {
    private NetworkSection() {
    }

    public static void read(YNode.Entry section, Statements out) {
        Fields.of(section.value(), "network", out.problems(), "network: {egress: {allow: [loopback]}}").ifPresent(f -> {
            f.allowOnly(List.of("egress", "name_resolution"));
            if (f.isEmpty()) {
                out.problems().at(section, "network states neither egress nor name_resolution",
                        "add egress: {allow: [...]} and/or name_resolution: {hosts: {...}}, or remove network");
            }
            f.entry("egress").ifPresent(e -> egress(e, out));
            f.entry("name_resolution").ifPresent(e -> nameResolution(e, out));
        });
    }

    private static void egress(YNode.Entry section, Statements out) {
        Fields.of(section.value(), "network.egress", out.problems(), "egress: {allow: [loopback]}").ifPresent(f -> {
            f.allowOnly(Statements.withHeader("allow"));
            Header header = Header.read(f);
            var allow = f.entry("allow");
            if (allow.isEmpty()) {
                out.problems().at(section, "network.egress has no allow list",
                        "write allow: [loopback, {host: example.com, port: 443}]; allow: [] denies all egress");
                return;
            }
            f.list(allow.get(), "[loopback, {host: example.com, port: 443}]").ifPresent(items -> {
                Set<EgressGrant> grants = new LinkedHashSet<>();
                for (int i = 0; i < items.size(); i++) {
                    String where = "network.egress.allow[" + i + "]";
                    YNode item = items.get(i);
                    EgressEntry.read(item, where, f).then(grants::add, (message, hint) -> {
                        if (!message.isEmpty()) {
                            out.problems().at(item, message, hint);
                        }
                    });
                }
                Scope scope = items.isEmpty() ? new Scope.WholeDomain() : new Scope.Egress(List.copyOf(grants));
                out.put(CapabilityDomain.NETWORK_EGRESS, scope, header, section);
            });
        });
    }

    private static void nameResolution(YNode.Entry section, Statements out) {
        String path = "network.name_resolution";
        Fields.of(section.value(), path, out.problems(), "name_resolution: {hosts: {example.com: 93.184.216.34}}")
                .ifPresent(f -> {
                    f.allowOnly(Statements.withHeader("hosts"));
                    Header header = Header.read(f);
                    var hostsEntry = f.entry("hosts");
                    if (hostsEntry.isEmpty()) {
                        out.problems().at(section, path + " has no hosts table",
                                "write hosts: {example.com: 93.184.216.34}; hosts: {} resolves nothing");
                        return;
                    }
                    String example = "hosts: {example.com: 93.184.216.34}";
                    Fields.of(hostsEntry.get().value(), path + ".hosts", out.problems(), example)
                            .ifPresent(hosts -> {
                                TreeMap<String, String> table = new TreeMap<>();
                                for (YNode.Entry e : hosts.mapping().entries()) {
                                    pin(e, hosts, table, out);
                                }
                                Scope scope = hosts.isEmpty() ? new Scope.WholeDomain() : new Scope.PinnedHosts(table);
                                out.put(CapabilityDomain.NAME_RESOLUTION, scope, header, section);
                            });
                });
    }

    private static void pin(YNode.Entry e, Fields hosts, TreeMap<String, String> table, Statements out) {
        String[] name = {null};
        HostRules.hostName(e.key()).then(n -> name[0] = n, (message, hint) -> out.problems().at(e, message, hint));
        var address = hosts.asString(e.value(), hosts.path() + "." + e.key(), "93.184.216.34");
        if (address.isEmpty()) {
            return;
        }
        HostRules.ipLiteral(address.get().text()).then(ip -> {
            if (name[0] != null && table.putIfAbsent(name[0], ip) != null) {
                out.problems().at(e, "host '" + e.key() + "' is pinned twice (names are case-insensitive)",
                        "keep one entry for " + name[0]);
            }
        }, (message, hint) -> out.problems().at(address.get(), message, hint));
    }
}
