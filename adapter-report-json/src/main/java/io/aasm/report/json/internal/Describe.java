package io.aasm.report.json.internal;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.Token;
import io.aasm.ports.plan.AchievedControl;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.RefusalEntry;
import io.aasm.ports.report.RequestedControl;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One-line descriptions of scopes, requirements and states. Grant lists are sorted because their
 * order carries no meaning, so equal policies always render identically.
 */
final class Describe {
    static final Comparator<EgressGrant> EGRESS_ORDER = Comparator.comparing(EgressGrant::host)
            .thenComparing(g -> g.protocol().token())
            .thenComparingInt(EgressGrant::portFrom)
            .thenComparingInt(EgressGrant::portTo);

    /** Requirements in domain order; ties (duplicate domains) by their rendering. */
    static final Comparator<ControlRequirement> REQUIREMENT_ORDER = Comparator.comparing(ControlRequirement::domain)
            .thenComparing(Describe::requirement);

    /**
     * Launch-wide refusals first, in the kernel's order (a summary, then candidates in walk order),
     * then per-domain refusals in domain order. Sorting is stable, so nothing else is reordered.
     */
    static final Comparator<RefusalEntry> REFUSAL_ORDER =
            Comparator.comparingInt((RefusalEntry e) -> e.domain().map(d -> d.ordinal() + 1).orElse(0));

    private Describe() {
    }

    static String requirement(ControlRequirement r) {
        return "intent=" + r.intent().token() + ", posture=" + r.posture().token()
                + ", descendants=" + r.descendants().token() + ", scope=" + scope(r.scope());
    }

    static String scope(Scope scope) {
        if (scope instanceof Scope.Paths p) {
            return counted("paths", sorted(p.paths()))
                    + (p.privateDirs().isEmpty() ? "" : "; " + counted("private", sorted(p.privateDirs())));
        }
        if (scope instanceof Scope.Egress e) {
            return counted("egress", e.grants().stream().sorted(EGRESS_ORDER).map(Describe::grant).toList());
        }
        if (scope instanceof Scope.PinnedHosts h) {
            return counted("pinned_hosts", h.hosts().entrySet().stream()
                    .map(en -> en.getKey() + "=" + en.getValue()).toList());
        }
        if (scope instanceof Scope.Syscalls s) {
            return counted("syscalls " + s.mode().token(), sorted(s.names()));
        }
        if (scope instanceof Scope.ProcessCeiling c) {
            return "process_ceiling=" + c.maxProcesses();
        }
        if (scope instanceof Scope.IpcGrants i) {
            return counted("ipc_grants", sorted(i.channels().stream().map(Token::token).toList()));
        }
        if (scope instanceof Scope.Delegated d) {
            return counted("delegated", sorted(d.environmentNames()));
        }
        if (scope instanceof Scope.Limits l) {
            Map<String, Long> stated = l.stated();
            return stated.isEmpty() ? "limits: <no ceiling stated>" : "limits: " + stated.entrySet().stream()
                    .map(en -> en.getKey() + "=" + en.getValue()).collect(Collectors.joining(" "));
        }
        return scope.token();
    }

    static String grant(EgressGrant g) {
        String host = g.host().contains(":") ? "[" + g.host() + "]" : g.host();
        String ports = g.anyPort() ? "any" : g.portFrom() == g.portTo()
                ? Integer.toString(g.portFrom()) : g.portFrom() + "-" + g.portTo();
        return g.protocol().token() + " " + host + ":" + ports;
    }

    /** The state detail of §3.5: timing/descendants, planned vs achieved, or the reason token. */
    static String stateDetail(ControlState state) {
        if (state instanceof ControlState.Prevention p) {
            return "timing=" + p.timing().token() + ", descendants=" + p.descendants().token();
        }
        if (state instanceof ControlState.ObserveOnly o) {
            return "timing=" + o.timing().token() + ", descendants=" + o.descendants().token();
        }
        if (state instanceof ControlState.Degraded d) {
            return "planned=" + d.planned().token() + ", achieved=" + achieved(d.achieved())
                    + ", reason=" + d.reason().token();
        }
        if (state instanceof ControlState.Unsupported u) {
            return u.reason().token();
        }
        return ((ControlState.Unmeasured) state).reason().token();
    }

    /** The free-text explanation a state carries, empty for prevention and observe-only. */
    static String stateExplanation(ControlState state) {
        if (state instanceof ControlState.Degraded d) {
            return d.detail();
        }
        if (state instanceof ControlState.Unsupported u) {
            return u.detail();
        }
        if (state instanceof ControlState.Unmeasured m) {
            return m.detail();
        }
        return "";
    }

    static String achieved(AchievedControl a) {
        if (a instanceof AchievedControl.ObservedOnly o) {
            return "observed(timing=" + o.timing().token() + ", descendants=" + o.descendants().token() + ")";
        }
        return "nothing";
    }

    static String requestedDetail(RequestedControl requested) {
        if (requested instanceof RequestedControl.Stated s) {
            return requirement(s.requirement());
        }
        if (requested instanceof RequestedControl.NotStated n) {
            return "node=" + n.node() + ", schema_default=" + n.schemaDefault();
        }
        if (requested instanceof RequestedControl.PolicyCannotExpress p) {
            return p.detail();
        }
        return "no policy was derived";
    }

    /** The /proc/<pid>/environ caveat applies whenever the credential domain is not prevented. */
    static boolean environCaveatApplies(IsolationReport report) {
        return !(report.row(CapabilityDomain.CREDENTIAL).state() instanceof ControlState.Prevention);
    }

    static List<String> sorted(java.util.Collection<String> values) {
        return values.stream().sorted().toList();
    }

    private static String counted(String kind, List<String> items) {
        return kind + "[" + items.size() + "]: " + (items.isEmpty() ? "<none>" : String.join(", ", items));
    }
}
