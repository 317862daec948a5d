package io.aasm.report.json.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aasm.ports.capability.Token;
import io.aasm.ports.backend.AchievedControl;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.ReportOrder;
import io.aasm.ports.report.RequestedControl;
import java.util.Collection;
import java.util.OptionalLong;

/**
 * JSON shapes of the closed families (scope, requested control, control state). Each is an object
 * whose first field {@code kind} names the variant; the fields after it are fixed per variant.
 */
final class JsonParts {
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JsonParts() {
    }

    static ObjectNode requirement(ControlRequirement r) {
        ObjectNode o = F.objectNode();
        o.put("domain", r.domain().token());
        o.put("intent", r.intent().token());
        o.put("posture", r.posture().token());
        o.put("descendants", r.descendants().token());
        o.set("scope", scope(r.scope()));
        return o;
    }

    static ObjectNode scope(Scope scope) {
        ObjectNode o = F.objectNode().put("kind", scope.token());
        if (scope instanceof Scope.Paths p) {
            o.set("paths", strings(ReportOrder.sorted(p.paths())));
            if (!p.privateDirs().isEmpty()) {
                o.set("private", strings(ReportOrder.sorted(p.privateDirs())));
            }
        } else if (scope instanceof Scope.Egress e) {
            ArrayNode grants = o.putArray("grants");
            e.grants().stream().sorted(ReportOrder.EGRESS_GRANTS).forEach(g -> grants.add(grant(g)));
        } else if (scope instanceof Scope.PinnedHosts h) {
            ArrayNode hosts = o.putArray("hosts");
            h.hosts().forEach((name, address) -> hosts.addObject().put("name", name).put("address", address));
        } else if (scope instanceof Scope.Syscalls s) {
            o.put("mode", s.mode().token());
            o.set("names", strings(ReportOrder.sorted(s.names())));
        } else if (scope instanceof Scope.ProcessCeiling c) {
            o.put("max_processes", c.maxProcesses());
        } else if (scope instanceof Scope.IpcGrants i) {
            o.set("channels", strings(ReportOrder.sorted(i.channels().stream().map(Token::token).toList())));
        } else if (scope instanceof Scope.Delegated d) {
            o.set("environment_names", strings(ReportOrder.sorted(d.environmentNames())));
        } else if (scope instanceof Scope.Limits l) {
            limit(o, "max_memory_bytes", l.maxMemoryBytes());
            limit(o, "max_cpu_seconds", l.maxCpuSeconds());
            limit(o, "max_wall_clock_seconds", l.maxWallClockSeconds());
            limit(o, "max_open_files", l.maxOpenFiles());
            limit(o, "max_file_size_bytes", l.maxFileSizeBytes());
            limit(o, "max_processes", l.maxProcesses());
        }
        return o;
    }

    static ObjectNode requested(RequestedControl requested) {
        ObjectNode o = F.objectNode().put("kind", requested.token());
        if (requested instanceof RequestedControl.Stated s) {
            o.set("requirement", requirement(s.requirement()));
        } else if (requested instanceof RequestedControl.NotStated n) {
            o.put("node", n.node()).put("schema_default", n.schemaDefault());
        } else if (requested instanceof RequestedControl.PolicyCannotExpress p) {
            o.put("detail", p.detail());
        }
        return o;
    }

    static ObjectNode state(ControlState state) {
        ObjectNode o = F.objectNode().put("kind", state.token());
        if (state instanceof ControlState.Prevention p) {
            o.put("timing", p.timing().token()).put("descendants", p.descendants().token());
        } else if (state instanceof ControlState.ObserveOnly ob) {
            o.put("timing", ob.timing().token()).put("descendants", ob.descendants().token());
        } else if (state instanceof ControlState.Degraded d) {
            o.put("planned", d.planned().token());
            o.set("achieved", achieved(d.achieved()));
            o.put("reason", d.reason().token()).put("detail", d.detail());
        } else if (state instanceof ControlState.Unsupported u) {
            o.put("reason", u.reason().token()).put("detail", u.detail());
        } else if (state instanceof ControlState.Unmeasured m) {
            o.put("reason", m.reason().token()).put("detail", m.detail());
        }
        return o;
    }

    static ArrayNode strings(Collection<String> values) {
        ArrayNode a = F.arrayNode();
        values.forEach(a::add);
        return a;
    }

    private static ObjectNode achieved(AchievedControl a) {
        if (a instanceof AchievedControl.ObservedOnly o) {
            return F.objectNode().put("kind", "observed").put("timing", o.timing().token())
                    .put("descendants", o.descendants().token());
        }
        return F.objectNode().put("kind", "nothing");
    }

    private static ObjectNode grant(EgressGrant g) {
        return F.objectNode().put("protocol", g.protocol().token()).put("host", g.host())
                .put("port_from", g.portFrom()).put("port_to", g.portTo());
    }

    /** An absent ceiling is null rather than missing, so every limits object has the same fields. */
    private static void limit(ObjectNode o, String name, OptionalLong value) {
        if (value.isPresent()) {
            o.put(name, value.getAsLong());
        } else {
            o.putNull(name);
        }
    }
}
