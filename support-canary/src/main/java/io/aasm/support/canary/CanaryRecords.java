package io.aasm.support.canary;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The one rule from canary verdicts to evidence, for every backend. Only a denial of a planned domain,
 * reported under this launch's own nonce and not contradicted by what the supervisor saw from outside,
 * becomes a DECISION record claiming {@code denied_before_execution}; everything else is an EXERCISED record
 * that says why nothing is claimed.
 */
public final class CanaryRecords {
    private CanaryRecords() {
    }

    /**
     * One launch's canaries as its supervisor planned them.
     *
     * @param attempt what the canary of a domain attempted, for the record
     * @param where how and where the denial was made and reported (the backend's own sentence)
     */
    public record Launch(String nonce, Set<CapabilityDomain> planned, Function<CapabilityDomain, String> attempt,
                         String where) {
        public Launch {
            planned = planned.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(planned));
        }
    }

    /**
     * {@code line}: the canary line as the backend's channel delivered it (empty: none arrived);
     * {@code outside}: what the supervisor itself saw get through, as {@code "<domain>: <what>"}.
     */
    public static List<EvidenceRecord> ofLine(Launch launch, Optional<String> line, Optional<String> outside) {
        Optional<Map<CapabilityDomain, CanaryVerdict>> verdicts = line.flatMap(l -> CanaryLine.parse(l, launch.nonce()));
        List<EvidenceRecord> out = new ArrayList<>();
        if (verdicts.isEmpty()) {
            out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(), ClaimTerm.OBSERVED, "canaries "
                    + tokens(launch.planned()) + " planned, but " + (line.isEmpty()
                    ? "no canary record reached the supervisor"
                    : "the canary record does not carry this launch's nonce " + launch.nonce()) + ": no decision claimed"));
        }
        out.addAll(of(launch, verdicts.orElse(Map.of()), outside));
        return out;
    }

    /** The records for verdicts a backend already holds (aasm-native's launcher reports a bit mask). */
    public static List<EvidenceRecord> of(Launch launch, Map<CapabilityDomain, CanaryVerdict> verdicts,
                                          Optional<String> outside) {
        List<EvidenceRecord> out = new ArrayList<>();
        // The supervisor's own sight wins: a domain it saw get through is never claimed denied.
        Optional<CapabilityDomain> seen = outside.flatMap(o -> CapabilityDomain.fromToken(o.substring(0,
                Math.max(0, o.indexOf(':')))));
        for (CapabilityDomain d : new TreeSet<>(launch.planned())) {
            CanaryVerdict v = verdicts.get(d);
            if (v == null) {
                continue;
            }
            String head = "canary " + launch.nonce() + ": " + launch.attempt().apply(d);
            if (v.outcome() == CanaryVerdict.Outcome.DENIED && seen.filter(d::equals).isEmpty()) {
                out.add(new EvidenceRecord(EvidenceKind.DECISION, Optional.of(d), ClaimTerm.DENIED_BEFORE_EXECUTION,
                        head + " was denied" + (v.errno() == 0 ? "" : " (errno " + v.errno() + ")") + " "
                        + launch.where()));
            } else {
                out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.of(d), ClaimTerm.OBSERVED, head
                        + switch (v.outcome()) {
                            case DENIED -> " was reported denied, but the supervisor saw it get through: no decision"
                                    + " claimed";
                            case PASSED -> " was NOT denied: the launch was refused before the program ran (exit 125)";
                            case ERROR -> " failed with errno " + v.errno() + ", which is not this boundary's denial: no"
                                    + " decision claimed";
                        }));
            }
        }
        outside.ifPresent(o -> out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(),
                ClaimTerm.OBSERVED, "seen by the supervisor after the canaries: " + o)));
        return out;
    }

    private static String tokens(Set<CapabilityDomain> ds) {
        return new TreeSet<>(ds).stream().map(CapabilityDomain::token).toList().toString();
    }
}
