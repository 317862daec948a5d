package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.guard.GuardReport;
import io.aasm.backend.sandlock.internal.supervise.ExitMapping;
import io.aasm.backend.sandlock.internal.supervise.SandlockRun;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.support.canary.CanaryRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the backend can show about a run: the setup records (what sandlock was told, per domain),
 * what the guard saw while it ran (descriptors, sandlock started), and after the end how the program
 * ended and on what that rests — including a record for each ceiling that acted. DECISION records come
 * from the canaries only (CanaryRecords, support-canary): sandlock's denials during the run are not observed one by one.
 */
final class RunEvidence {
    private RunEvidence() {
    }

    static List<EvidenceRecord> of(Launches.Prepared p, SandlockRun run, String teardown) {
        List<EvidenceRecord> out = new ArrayList<>(p.setup());
        GuardReport now = run.report();
        now.inventory().ifPresent(inv -> out.add(new EvidenceRecord(EvidenceKind.INSTALLED, Optional.empty(),
                ClaimTerm.OBSERVED, "descriptor inventory taken by the guard before sandlock started: kept "
                + inv.kept() + ", sealed close-on-exec " + inv.sealed() + ", residual " + inv.residual()
                + "; sandlock's status descriptor 3 is the only one added")));
        out.add(new EvidenceRecord(EvidenceKind.INSTALLED, Optional.empty(), ClaimTerm.OBSERVED, "guard pid "
                + run.guardPid() + run.cgroup().map(c -> ", cgroup " + c).orElse(", no cgroup")
                + p.sandboxName().map(n -> ", sandbox " + n).orElse(", no sandbox name")
                + now.sandlockPid().stream().mapToObj(pid -> ", sandlock pid " + pid).findFirst().orElse("")));
        now.sandlockAuthority().ifPresent(a -> out.add(new EvidenceRecord(EvidenceKind.INSTALLED, Optional.empty(),
                ClaimTerm.OBSERVED, "sandlock's own /proc status right after its execve, read by the guard: " + a
                + (leastAuthority(a) ? " (the program and every descendant hold no more: the bounding, inheritable"
                + " and ambient sets are empty, the securebits locked, no_new_privs set)"
                : " — NOT least authority: a capability set is not empty or no_new_privs is not set"))));
        if (!run.finished()) {
            return out;
        }
        SandlockRun.Ended e;
        try {
            e = run.waitFor();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return out;
        }
        GuardReport r = e.report();
        p.canaries().ifPresent(b -> out.addAll(CanaryRecords.ofLine(b.launch(), r.canary(), b.escapedFromOutside())));
        boolean reported = !r.statusLines().isEmpty();
        if (reported) {
            // sandlock writes its status only after its sandbox was set up and the program ran in it.
            for (CapabilityDomain d : p.installed()) {
                out.add(new EvidenceRecord(EvidenceKind.INSTALLED, Optional.of(d),
                        ClaimTerm.OBSERVED, "sandlock accepted every flag, set up its sandbox and ran the program"
                        + " (it reported the program's status)"));
            }
        }
        out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(), ClaimTerm.OBSERVED, "the program ended: "
                + describe(e.mapped().disposition()) + " — " + e.mapped().account() + "; the guard then killed "
                + r.swept().orElse(0) + " remaining process(es) of the tree (" + teardown + ")"));
        if (e.requested() == ExitMapping.Requested.DEADLINE) {
            out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.of(CapabilityDomain.RESOURCE),
                    ClaimTerm.OBSERVED, "wall-clock ceiling of " + p.wallClockSeconds().orElse(0) + " s fired: the"
                    + " guard killed the whole tree (signal 9)"));
        }
        memoryKill(p, e).ifPresent(out::add);
        return out;
    }

    /** A SIGKILL under a memory ceiling is what sandlock does beyond it; say so, without claiming more. */
    private static Optional<EvidenceRecord> memoryKill(Launches.Prepared p, SandlockRun.Ended e) {
        if (!(e.mapped().disposition() instanceof ExitDisposition.Signalled s) || s.signal() != 9
                || e.requested() != ExitMapping.Requested.NONE) {
            return Optional.empty();
        }
        return p.plan().planned().stream().map(PlannedRequirement::requirement)
                .filter(r -> r.scope() instanceof Scope.Limits l && l.maxMemoryBytes().isPresent()).findFirst()
                .map(r -> new EvidenceRecord(EvidenceKind.EXERCISED, Optional.of(CapabilityDomain.RESOURCE),
                        ClaimTerm.OBSERVED, "the program was killed by SIGKILL with --max-memory="
                        + ((Scope.Limits) r.scope()).maxMemoryBytes().getAsLong() / 1024 + "K set: sandlock kills"
                        + " the allocating task beyond the ceiling (a SIGKILL from elsewhere looks the same)"));
    }

    /** {@code CapInh=0..;CapPrm=0..;...;NoNewPrivs=1;...}: every capability set empty and no_new_privs. */
    static boolean leastAuthority(String status) {
        boolean nnp = false;
        int sets = 0;
        for (String kv : status.split(";")) {
            String[] p = kv.split("=", 2);
            if (p.length == 2 && p[0].startsWith("Cap")) {
                if (!p[1].matches("0+")) {
                    return false;
                }
                sets++;
            }
            nnp |= p.length == 2 && p[0].equals("NoNewPrivs") && p[1].equals("1");
        }
        return nnp && sets == 5;
    }

    static String describe(ExitDisposition d) {
        if (d instanceof ExitDisposition.Exited x) {
            return "exit " + x.code();
        }
        if (d instanceof ExitDisposition.Signalled s) {
            return "signal " + s.signal();
        }
        return "not started: " + ((ExitDisposition.NotStarted) d).detail();
    }
}
