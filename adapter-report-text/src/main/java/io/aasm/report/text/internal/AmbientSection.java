package io.aasm.report.text.internal;

import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.report.ReportOrder;
import io.aasm.ports.report.ReportWording;
import java.util.List;

/** Authority the child may still hold: environment names (never values) and inherited descriptors. */
final class AmbientSection {
    static final String ENVIRON_CAVEAT = "caveat: the credential domain is not prevented here; a process's"
            + " environment stays readable through /proc/<pid>/environ by anything with /proc read access on this"
            + " host, so removing names is not by itself a credential boundary";

    private AmbientSection() {
    }

    static void write(IsolationReport r, Lines out) {
        CredentialPosture c = r.credentials();
        out.add("residual ambient authority (names only, never values):");
        out.item(counted("removed", List.copyOf(c.removed())));
        out.item(counted("delegated", List.copyOf(c.delegated())));
        out.item(counted("ambient_unremoved", List.copyOf(c.ambientUnremoved())));
        if (!c.contradictions().isEmpty()) {
            out.item(counted("CONTRADICTORY", c.contradictions())
                    + " — listed as removed and also as delegated or still present");
        }
        out.item("descriptors: " + r.descriptors().map(AmbientSection::inventory).orElse("<no inventory taken>"));
        out.item("privileges: " + r.authority().map(AmbientSection::privileges).orElse("<not established>"));
        if (ReportWording.environCaveatApplies(r)) {
            out.item(ENVIRON_CAVEAT);
        }
    }

    private static String inventory(DescriptorInventory d) {
        List<String> kept = d.kept().stream().sorted().map(String::valueOf).toList();
        List<String> sealed = d.sealed().stream().sorted().map(String::valueOf).toList();
        return (d.complete() ? "inventory complete" : "inventory INCOMPLETE — not every descriptor could be enumerated")
                + "; " + counted("kept", kept) + "; " + counted("sealed close-on-exec", sealed)
                + "; " + counted("residual unclosable", ReportOrder.sorted(d.residual()));
    }

    private static String privileges(ProcessAuthority a) {
        String held = a.clean() ? "no capability in any set, no_new_privs set"
                : String.join("; ", a.gaps());
        return (a.measured() ? "measured after execve: " : "planned: ") + held + "; seccomp " + a.seccomp()
                + " (CapInh=" + a.capInheritable() + " CapPrm=" + a.capPermitted() + " CapEff=" + a.capEffective()
                + " CapBnd=" + a.capBounding() + " CapAmb=" + a.capAmbient() + ")";
    }

    private static String counted(String label, List<String> names) {
        return label + " (" + names.size() + "): " + Lines.join(names);
    }
}
