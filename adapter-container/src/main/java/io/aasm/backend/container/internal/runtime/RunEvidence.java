package io.aasm.backend.container.internal.runtime;

import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.support.canary.CanaryRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the backend can show about a launch: CONFIGURED (what the container was created with, per domain
 * and for the whole run), INSTALLED once the engine accepted and started it (the engine applies every
 * setting before the program's first instruction, or the start fails), and one run-level EXERCISED record
 * after the container was removed. DECISION records come from the init's canaries only (CanaryRecords):
 * the kernel's denials during the run are not observed one by one.
 */
public final class RunEvidence {
    private RunEvidence() {
    }

    public static List<EvidenceRecord> records(ContainerPlan plan, List<String> general, Optional<Launch> launch,
                                               String image, String user) {
        List<EvidenceRecord> out = new ArrayList<>();
        plan.installed().forEach((d, steps) -> out.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.of(d),
                ClaimTerm.PLANNED, String.join("; ", steps))));
        List<String> run = new ArrayList<>(List.of("container from " + image + ", user " + user + ", every capability "
                + "dropped, no_new_privileges, read-only root, removed when it ends" + (plan.init()
                ? ", aasm's init as the container's first process" : launch.flatMap(Launch::canaries).isPresent()
                ? ", the program as the container's pid 1 (aasm's init made the canaries, then became the program by "
                + "execve in the same process)" : ", the program as the container's pid 1")));
        run.addAll(general);
        run.forEach(g -> out.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.empty(), ClaimTerm.PLANNED, g)));
        if (launch.isPresent() && launch.get().started()) {
            String detail = "the engine created and started container " + launch.get().id().substring(0, 12)
                    + " with these settings (it applies them before the program runs, or refuses to start)";
            for (CapabilityDomain d : plan.installed().keySet()) {
                out.add(new EvidenceRecord(EvidenceKind.INSTALLED, Optional.of(d), ClaimTerm.OBSERVED, detail));
            }
            launch.get().canaries().filter(c -> launch.get().disposition().isPresent()).ifPresent(c -> out.addAll(
                    CanaryRecords.ofLine(c.launch(), launch.get().canaryLine(), c.escapedFromOutside())));
            launch.get().disposition().ifPresent(x -> out.add(new EvidenceRecord(EvidenceKind.EXERCISED,
                    Optional.empty(), ClaimTerm.OBSERVED, "the program ran in the container and ended (" + describe(x)
                    + ")" + (launch.get().deadlineHit() ? "; wall-clock deadline reached, container removed" : "")
                    + "; the engine removed the container and every process in it")));
        }
        return out;
    }

    private static String describe(ExitDisposition d) {
        if (d instanceof ExitDisposition.Exited e) {
            return "exit " + e.code();
        }
        if (d instanceof ExitDisposition.Signalled s) {
            return "signal " + s.signal() + ", reported by the engine as status " + (128 + s.signal());
        }
        return "not started: " + ((ExitDisposition.NotStarted) d).detail();
    }
}
