package io.aasm.cli.internal;

import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.DomainCoverage;
import io.aasm.ports.policy.DomainLowering;
import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.Scope;
import java.io.PrintStream;
import java.util.stream.Collectors;

/** Prints how a valid policy lowers: the per-domain verdicts, the requirements, the unmapped statements. */
final class LoweringView {
    private LoweringView() {
    }

    static void print(PrintStream out, PolicyLowering l) {
        out.println("policy: " + l.origin() + " — valid");
        out.println("isolation: " + l.isolation().map(c -> c.token()).orElse("<not stated: none unless --isolation>"));
        out.println("domains:");
        for (DomainLowering d : l.domains()) {
            out.printf("  %-17s %-22s %s%n", d.domain().token(), d.coverage().token(), coverage(d.coverage()));
            d.residualGaps().forEach(g -> out.println("      gap: " + g));
        }
        out.println("requirements (" + l.requirements().size() + "):");
        if (l.requirements().isEmpty()) {
            out.println("  <empty> — a boundary requested with this policy is refused (no_requirements_lowered)");
        }
        for (ControlRequirement r : l.requirements()) {
            out.println("  " + r.domain().token() + ": intent=" + r.intent().token() + ", posture=" + r.posture().token()
                    + ", descendants=" + r.descendants().token() + ", scope=" + scope(r.scope()));
        }
        if (!l.unmapped().isEmpty()) {
            out.println("statements no capability domain can carry:");
            l.unmapped().forEach(u -> out.println("  " + u));
        }
    }

    private static String coverage(DomainCoverage c) {
        if (c instanceof DomainCoverage.Lowered low) {
            return "from " + low.sourcedFrom();
        }
        if (c instanceof DomainCoverage.NotStated ns) {
            return ns.node() + " absent; default: " + ns.schemaDefault();
        }
        return ((DomainCoverage.PolicyCannotExpress) c).detail();
    }

    private static String grant(io.aasm.ports.policy.EgressGrant g) {
        String ports = g.portFrom() == g.portTo() ? String.valueOf(g.portFrom()) : g.portFrom() + "-" + g.portTo();
        return g.protocol().token() + "://" + g.host() + ":" + ports;
    }

    static String scope(Scope s) {
        if (s instanceof Scope.Paths p) {
            return "paths[" + String.join(", ", p.paths()) + "]"
                    + (p.privateDirs().isEmpty() ? "" : " private[" + String.join(", ", p.privateDirs()) + "]");
        }
        if (s instanceof Scope.Egress e) {
            return "egress[" + e.grants().stream().map(LoweringView::grant).collect(Collectors.joining(", ")) + "]";
        }
        if (s instanceof Scope.PinnedHosts h) {
            return "pinned_hosts" + h.hosts();
        }
        if (s instanceof Scope.Syscalls sc) {
            return "syscalls[" + sc.mode().token() + ": " + String.join(", ", sc.names()) + "]";
        }
        if (s instanceof Scope.ProcessCeiling pc) {
            return "process_ceiling[" + pc.maxProcesses() + "]";
        }
        if (s instanceof Scope.IpcGrants ig) {
            return "ipc_grants[" + ig.channels().stream().map(c -> c.token()).sorted().collect(Collectors.joining(", ")) + "]";
        }
        if (s instanceof Scope.Delegated d) {
            return "delegated[" + String.join(", ", d.environmentNames()) + "]";
        }
        if (s instanceof Scope.Limits lim) {
            return "limits[" + lim.stated().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(", ")) + "]";
        }
        return s.token();
    }
}
