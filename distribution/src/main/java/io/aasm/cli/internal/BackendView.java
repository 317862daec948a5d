package io.aasm.cli.internal;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.Provenance;
import io.aasm.ports.capability.Availability;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.CapabilityReport;
import io.aasm.ports.capability.Prerequisite;
import io.aasm.ports.capability.SupportLevel;
import io.aasm.ports.kernel.BackendStatus;
import java.io.PrintStream;
import java.util.Optional;

/** Prints one backend: identity, provenance and the nine per-domain capability rows on this host. */
final class BackendView {
    private static final String ROW = "    %-17s %-9s %-7s %-11s %-16s %-19s %-11s %s%n";

    private BackendView() {
    }

    static void print(PrintStream out, BackendStatus status) {
        out.println("backend: " + status.id());
        status.identity().ifPresent(id -> identity(out, id));
        status.fault().ifPresent(f -> out.println("  fault: " + f));
        status.capabilities().ifPresent(c -> capabilities(out, c));
        if (status.capabilities().isEmpty() && status.fault().isEmpty()) {
            out.println("  capabilities: <not reported>");
        }
    }

    private static void identity(PrintStream out, BackendIdentity id) {
        Provenance p = id.provenance();
        out.println("  version: " + id.version());
        out.println("  provenance: source=" + p.source() + " license=" + p.license() + " modified=" + p.modified()
                + " status=" + p.status().token() + p.sha256().map(s -> " sha256=" + s).orElse(""));
    }

    private static void capabilities(PrintStream out, BackendCapabilities c) {
        if (c.availability() instanceof Availability.Unavailable u) {
            out.println("  availability: unavailable — " + u.reason());
        } else {
            out.println("  availability: available");
        }
        out.println("  platform_boundary: " + c.platformBoundary().token());
        out.println("  measured_at: " + c.measuredAt().map(Object::toString).orElse("<not measured>"));
        out.printf(ROW, "DOMAIN", "MEDIATION", "TIMING", "SYNCHRONY", "FAILURE", "DESCENDANTS", "SUPPORT", "CAN_PREVENT");
        for (CapabilityDomain d : CapabilityDomain.values()) {
            Optional<CapabilityReport> r = c.reportFor(d);
            if (r.isEmpty()) {
                out.printf(ROW, d.token(), "-", "-", "-", "-", "-", "unknown", "no (no report: unknown, not unsupported)");
                continue;
            }
            CapabilityReport cr = r.get();
            out.printf(ROW, d.token(), cr.mediation().token(), cr.timing().token(), cr.synchrony().token(),
                    cr.failurePosture().token(), cr.descendants().token(), cr.support().token(),
                    cr.canPrevent() ? "yes" : "no");
        }
        for (CapabilityDomain d : CapabilityDomain.values()) {
            c.reportFor(d).ifPresent(cr -> details(out, cr));
        }
    }

    private static void details(PrintStream out, CapabilityReport cr) {
        String prefix = "  " + cr.domain().token() + ": ";
        if (!"none".equals(cr.mechanism())) {
            out.println(prefix + "mechanism: " + cr.mechanism());
        }
        if (cr.support() instanceof SupportLevel.Unsupported u) {
            out.println(prefix + "unsupported: " + u.reason());
        } else if (cr.support() instanceof SupportLevel.Partial p) {
            p.limitations().forEach(l -> out.println(prefix + "limitation: " + l));
        }
        for (Prerequisite pr : cr.prerequisites()) {
            out.println(prefix + "prerequisite [" + pr.status().token() + "] " + pr.requirement() + ": " + detail(pr));
        }
    }

    private static String detail(Prerequisite pr) {
        if (pr.status() instanceof io.aasm.ports.capability.PrerequisiteStatus.Satisfied s) {
            return s.observation();
        }
        if (pr.status() instanceof io.aasm.ports.capability.PrerequisiteStatus.Unsatisfied u) {
            return u.detail();
        }
        return ((io.aasm.ports.capability.PrerequisiteStatus.Unchecked) pr.status()).detail();
    }
}
