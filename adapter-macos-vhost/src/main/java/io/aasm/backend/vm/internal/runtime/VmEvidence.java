package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.guest.GuestEnd;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.evidence.ProcessAuthority;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the backend can show about a launch: CONFIGURED (what the plan installs, the VM it ran in),
 * INSTALLED per domain (the agent reported the boundary in place before execve), one EXERCISED record
 * after the end, and DECISION for each canary the agent reported denied under this launch's nonce
 * ({@link GuestCanaries}). Denials during the run are not observed one by one.
 */
final class VmEvidence {
    private VmEvidence() {
    }

    static List<EvidenceRecord> records(Started s, String hypervisor, Optional<ExitDisposition> d, Optional<GuestEnd> end,
                                        boolean deadline, boolean killed) {
        List<EvidenceRecord> out = new ArrayList<>();
        s.launch().installed().forEach((dom, steps) -> out.add(new EvidenceRecord(EvidenceKind.CONFIGURED,
                Optional.of(dom), ClaimTerm.PLANNED, String.join("; ", steps))));
        out.add(new EvidenceRecord(EvidenceKind.CONFIGURED, Optional.empty(), ClaimTerm.PLANNED, "VM: " + hypervisor
                + "; " + s.launch().slots().size() + " share slot(s) in use"));
        String detail = "the guest agent installed the boundary before execve (VM running " + s.restoreMillis()
                + " ms after spawn, agent answered at " + s.answerMillis() + " ms)";
        for (CapabilityDomain dom : s.launch().installed().keySet()) {
            out.add(new EvidenceRecord(EvidenceKind.INSTALLED, Optional.of(dom), ClaimTerm.OBSERVED, detail));
        }
        out.addAll(GuestCanaries.decisions(s.canaries(), s.fields()));
        out.add(new EvidenceRecord(EvidenceKind.INSTALLED, Optional.empty(), ClaimTerm.OBSERVED,
                "the program's authority right after execve: " + s.fields().getOrDefault("authority", "unavailable")));
        d.ifPresent(x -> out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(), ClaimTerm.OBSERVED,
                "the program ran in its guest and ended (" + describe(x, end) + ")"
                        + (deadline ? "; wall-clock ceiling reached" : "") + (killed ? "; killed on request" : "")
                        + "; the agent killed the rest of the tree (cgroup.kill) and the host killed the VM"
                        + end.map(VmEvidence::peak).orElse(""))));
        return out;
    }

    private static String describe(ExitDisposition d, Optional<GuestEnd> end) {
        if (end.isPresent() && end.get() instanceof GuestEnd.Lost l) {
            return "no exit report: " + l.why() + "; reported as killed by signal 9";
        }
        if (d instanceof ExitDisposition.Exited e) {
            return "exit " + e.code();
        }
        return "signal " + ((ExitDisposition.Signalled) d).signal();
    }

    private static String peak(GuestEnd e) {
        Map<String, String> f = e instanceof GuestEnd.Exited x ? x.fields()
                : e instanceof GuestEnd.Signalled s ? s.fields() : Map.of();
        return f.containsKey("memory_peak") ? "; the tree's peak memory in the guest: " + f.get("memory_peak").trim()
                + " bytes" : "";
    }

    /** The agent's "authority:" line, as the native launcher's (CapInh=..;CapPrm=..;...). */
    static Optional<ProcessAuthority> authority(String line) {
        Map<String, String> kv = new HashMap<>();
        for (String part : line.split(";")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                kv.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            }
        }
        if (!kv.containsKey("CapEff")) {
            return Optional.empty();
        }
        String seccomp = switch (kv.getOrDefault("Seccomp", "")) {
            case "2" -> "filter";
            case "1" -> "strict";
            case "0" -> "disabled";
            default -> "";
        };
        return Optional.of(new ProcessAuthority(true, kv.getOrDefault("CapInh", ""), kv.getOrDefault("CapPrm", ""),
                kv.getOrDefault("CapEff", ""), kv.getOrDefault("CapBnd", ""), kv.getOrDefault("CapAmb", ""),
                "1".equals(kv.get("NoNewPrivs")), seccomp, "measured: read by the guest agent from the program's own "
                + "/proc/<pid>/status in the guest right after its execve"));
    }
}
