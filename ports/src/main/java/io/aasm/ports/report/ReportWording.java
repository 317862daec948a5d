package io.aasm.ports.report;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.Token;
import io.aasm.ports.backend.AchievedControl;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Scope;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How report values read in words, shared by every {@link ReportRenderer} so that all formats say
 * the same thing about the same report: a requirement, a scope, a control state's detail and
 * explanation, what was requested for a domain. These are one-line phrases built from wire tokens;
 * layout (tables, keys, JSON shapes) stays with each renderer.
 *
 * <p>Order-free collections inside a phrase are sorted ({@link ReportOrder}), so equal reports
 * always read identically. The phrases are not sanitised: values may carry program-influenced text,
 * and a renderer that prints lines must pass them through {@link UntrustedText#clean(String)}.
 *
 * <p>Every method is a pure function of its argument: thread-safe, never returns {@code null}, and
 * rejects a {@code null} argument with a {@link NullPointerException}.
 */
public final class ReportWording {
    private ReportWording() {
    }

    /** {@code intent=…, posture=…, descendants=…, scope=…} (the scope as {@link #scope(Scope)}). */
    public static String requirement(ControlRequirement r) {
        return "intent=" + r.intent().token() + ", posture=" + r.posture().token()
                + ", descendants=" + r.descendants().token() + ", scope=" + scope(r.scope());
    }

    /**
     * A scope by its type, with a count: {@code paths[2]: /a, /b}, {@code egress[1]: tcp host:443},
     * {@code syscalls deny[3]: …}, {@code process_ceiling=64}, {@code limits: …}; the token alone
     * for a scope without content ({@code whole_domain}).
     */
    public static String scope(Scope scope) {
        if (scope instanceof Scope.Paths p) {
            return counted("paths", ReportOrder.sorted(p.paths()))
                    + (p.privateDirs().isEmpty() ? "" : "; " + counted("private", ReportOrder.sorted(p.privateDirs())));
        }
        if (scope instanceof Scope.Egress e) {
            return counted("egress", e.grants().stream().sorted(ReportOrder.EGRESS_GRANTS)
                    .map(ReportWording::grant).toList());
        }
        if (scope instanceof Scope.PinnedHosts h) {
            return counted("pinned_hosts", h.hosts().entrySet().stream()
                    .map(en -> en.getKey() + "=" + en.getValue()).toList());
        }
        if (scope instanceof Scope.Syscalls s) {
            return counted("syscalls " + s.mode().token(), ReportOrder.sorted(s.names()));
        }
        if (scope instanceof Scope.ProcessCeiling c) {
            return "process_ceiling=" + c.maxProcesses();
        }
        if (scope instanceof Scope.IpcGrants i) {
            return counted("ipc_grants", ReportOrder.sorted(i.channels().stream().map(Token::token).toList()));
        }
        if (scope instanceof Scope.Delegated d) {
            return counted("delegated", ReportOrder.sorted(d.environmentNames()));
        }
        if (scope instanceof Scope.Limits l) {
            Map<String, Long> stated = l.stated();
            return stated.isEmpty() ? "limits: <no ceiling stated>" : "limits: " + stated.entrySet().stream()
                    .map(en -> en.getKey() + "=" + en.getValue()).collect(Collectors.joining(" "));
        }
        return scope.token();
    }

    /** {@code tcp host:port}, {@code tcp [::1]:8000-8100} or {@code udp host:any}. */
    public static String grant(EgressGrant g) {
        String host = g.host().contains(":") ? "[" + g.host() + "]" : g.host();
        String ports = g.anyPort() ? "any" : g.portFrom() == g.portTo()
                ? Integer.toString(g.portFrom()) : g.portFrom() + "-" + g.portTo();
        return g.protocol().token() + " " + host + ":" + ports;
    }

    /**
     * The detail of a state: timing and descendants for prevention and observe-only; planned,
     * achieved and the reason token for degraded; the reason token for unsupported and unmeasured.
     */
    public static String stateDetail(ControlState state) {
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

    /** The free-text explanation a state carries; empty for prevention and observe-only. */
    public static String stateExplanation(ControlState state) {
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

    /** {@code observed(timing=…, descendants=…)} or {@code nothing}. */
    public static String achieved(AchievedControl a) {
        if (a instanceof AchievedControl.ObservedOnly o) {
            return "observed(timing=" + o.timing().token() + ", descendants=" + o.descendants().token() + ")";
        }
        return "nothing";
    }

    /** What was requested for a domain: the requirement, the missing node and its default, or why none. */
    public static String requestedDetail(RequestedControl requested) {
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

    /**
     * Whether a report must warn that environment values stay readable by other processes of the
     * host: whenever the credential domain is not in prevention, removing names is no boundary.
     */
    public static boolean environCaveatApplies(IsolationReport report) {
        return !(report.row(CapabilityDomain.CREDENTIAL).state() instanceof ControlState.Prevention);
    }

    private static String counted(String kind, List<String> items) {
        return kind + "[" + items.size() + "]: " + (items.isEmpty() ? "<none>" : String.join(", ", items));
    }
}
