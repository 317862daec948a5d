package io.aasm.backend.landlockseccomp.internal.runtime;

import io.aasm.backend.landlockseccomp.internal.launcher.CanaryOutcome;
import io.aasm.backend.landlockseccomp.internal.launcher.RecordedDecisions;
import io.aasm.backend.landlockseccomp.internal.lower.DeniedCalls;
import io.aasm.backend.landlockseccomp.internal.launcher.StartOutcome;
import io.aasm.backend.landlockseccomp.internal.lower.Canaries;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.support.canary.CanaryRecords;
import io.aasm.support.canary.CanaryVerdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the backend can show about a launch: CONFIGURED (what the plan installs), INSTALLED (the
 * launcher reported the boundary in place before execve) per domain, DECISION for each canary the
 * boundary denied before execve, and one run-level EXERCISED record after exit. The program's own
 * denials are not observed one by one.
 */
public final class LaunchEvidence {
    private LaunchEvidence() {
    }

    public static List<EvidenceRecord> records(Launch launch) {
        List<EvidenceRecord> out = new ArrayList<>();
        launch.plan().installed().forEach((d, steps) -> out.add(new EvidenceRecord(EvidenceKind.CONFIGURED,
                Optional.of(d), ClaimTerm.PLANNED, String.join("; ", steps))));
        launch.plan().seccomp().forEach(sc -> out.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.empty(),
                ClaimTerm.PLANNED, "seccomp program (" + sc.bpf().length / 8 + " instructions): " + sc.purpose())));
        Optional<StartOutcome> start = launch.startOutcome();
        if (start.isPresent() && start.get() instanceof StartOutcome.Started s) {
            String detail = "launcher installed the boundary before execve (setup " + s.setupNanos() / 1000 + " us)";
            for (CapabilityDomain d : launch.plan().installed().keySet()) {
                out.add(new EvidenceRecord(EvidenceKind.INSTALLED, Optional.of(d), ClaimTerm.OBSERVED, detail));
            }
            launch.process().flatMap(p -> p.descriptors()).ifPresent(inv -> out.add(new EvidenceRecord(
                    EvidenceKind.INSTALLED, Optional.empty(), ClaimTerm.OBSERVED, "descriptor inventory: " + inv)));
            canaries(launch, out);
        }
        launch.process().flatMap(p -> p.decisions()).ifPresent(d -> decisions(launch, d, out));
        launch.disposition().ifPresent(d -> out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(),
                ClaimTerm.OBSERVED, "the program ran inside the boundary and ended (" + describe(d) + ")"
                + (launch.deadlineHit() ? "; wall-clock deadline reached, whole tree killed" : "")
                + "; the launcher tore down every remaining process of the tree"
                + (launch.teardownGroup() ? ", then the supervisor emptied the tree's cgroup (cgroup.kill)" : ""))));
        return out;
    }

    /**
     * One DECISION record per canary the launcher saw denied (and the supervisor saw leave no trace): a denial
     * by this launch's boundary, before the program ran, tied to the launch by its nonce.
     */
    private static void canaries(Launch launch, List<EvidenceRecord> out) {
        Optional<CanaryWitness> witness = launch.canaries();
        Optional<CanaryOutcome> outcome = launch.process().flatMap(p -> p.canary());
        if (witness.isEmpty() || outcome.isEmpty()) {
            return;
        }
        if (outcome.get() instanceof CanaryOutcome.Unavailable u) {
            out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(), ClaimTerm.UNMEASURED,
                    "canaries could not run (" + u.why() + "): no denial was observed before execve"));
            return;
        }
        CanaryOutcome.Ran ran = (CanaryOutcome.Ran) outcome.get();
        CanaryWitness w = witness.get();
        // The launcher reports a bit mask, not errnos: each kind is denied (errno unknown, 0) or got through.
        Map<CapabilityDomain, CanaryVerdict> verdicts = new EnumMap<>(CapabilityDomain.class);
        w.kinds().forEach(k -> verdicts.put(k.domain(), ran.wasDenied(k.bit()) ? CanaryVerdict.denied(0)
                : CanaryVerdict.passed()));
        Map<CapabilityDomain, Canaries.Kind> kinds = new EnumMap<>(CapabilityDomain.class);
        w.kinds().forEach(k -> kinds.put(k.domain(), k));
        // What the supervisor saw get through from outside already refused the launch (Launch): none here.
        out.addAll(CanaryRecords.of(new CanaryRecords.Launch(w.nonce(), kinds.keySet(), d -> w.attempt(kinds.get(d)),
                "inside this launch's boundary before execve"), verdicts, Optional.empty()));
    }

    /**
     * The calls the launch's seccomp program denied while the program ran, as the launcher's init answered
     * them: one DECISION record per domain they speak for (counts per call and the latest ones), and one for
     * the run when they belong to no stated domain (the hardening baseline).
     */
    private static void decisions(Launch launch, RecordedDecisions d, List<EvidenceRecord> out) {
        if (d.unavailable().isPresent()) {
            out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(), ClaimTerm.UNMEASURED,
                    "denials during the run were not recorded: " + d.unavailable().get()));
            return;
        }
        DeniedCalls calls = launch.plan().deniedCalls();
        Map<Optional<CapabilityDomain>, Map<String, Long>> byDomain = new LinkedHashMap<>();
        d.counts().forEach((nr, n) -> {
            DeniedCalls.Call c = calls.call(nr);
            byDomain.computeIfAbsent(c.domain(), k -> new TreeMap<>()).merge(c.name(), n, Long::sum);
        });
        byDomain.forEach((domain, counts) -> {
            long total = counts.values().stream().mapToLong(Long::longValue).sum();
            String latest = d.latest().stream().filter(s -> calls.call(s.nr()).domain().equals(domain))
                    .reduce((a, b) -> b).map(s -> "; latest: " + calls.call(s.nr()).name() + "(" + s.a0() + ", "
                            + s.a1() + ", " + s.a2() + ") by pid " + s.pid()).orElse("");
            String what = counts.entrySet().stream().map(e -> e.getKey() + " x" + e.getValue())
                    .collect(Collectors.joining(", "));
            out.add(new EvidenceRecord(EvidenceKind.DECISION, domain, domain.isPresent()
                    ? ClaimTerm.DENIED_BEFORE_EXECUTION : ClaimTerm.OBSERVED, total + " call(s) denied during the run"
                    + (domain.isPresent() ? "" : " by the hardening baseline") + ", each answered EPERM by the "
                    + "launcher before it executed: " + what + latest));
        });
    }

    private static String describe(ExitDisposition d) {
        if (d instanceof ExitDisposition.Exited e) {
            return "exit " + e.code();
        }
        if (d instanceof ExitDisposition.Signalled s) {
            return "signal " + s.signal();
        }
        return "not started: " + ((ExitDisposition.NotStarted) d).detail();
    }
}
