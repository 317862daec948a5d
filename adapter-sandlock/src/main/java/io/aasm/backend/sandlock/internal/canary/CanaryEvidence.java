package io.aasm.backend.sandlock.internal.canary;

import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the shim's canary line ({@code nonce=<hex> <domain>=denied|passed|error/<errno> ...}, the first
 * line of the launch's FIFO as the guard reported it) into evidence. Only a denial of this launch's own
 * nonce becomes a DECISION record; a line with another nonce, or none at all, proves nothing and says so.
 */
public final class CanaryEvidence {
    private CanaryEvidence() {
    }

    /** Each kind's verdict and errno, as the shim wrote them. */
    record Verdict(String word, int errno) {
    }

    static Optional<Map<CanaryKind, Verdict>> parse(String line, String nonce) {
        String[] words = line.strip().split(" ");
        if (words.length == 0 || !words[0].equals("nonce=" + nonce)) {
            return Optional.empty();
        }
        Map<CanaryKind, Verdict> out = new EnumMap<>(CanaryKind.class);
        for (int i = 1; i < words.length; i++) {
            String[] kv = words[i].split("=", 2);
            String[] v = kv.length == 2 ? kv[1].split("/", 2) : new String[0];
            Optional<CanaryKind> k = CanaryKind.ofToken(kv[0]);
            if (k.isEmpty() || v.length != 2 || !v[1].matches("[0-9]{1,4}")) {
                return Optional.empty();
            }
            out.put(k.get(), new Verdict(v[0], Integer.parseInt(v[1])));
        }
        return Optional.of(out);
    }

    /** {@code line}: what the guard reported from the FIFO; {@code outside}: the supervisor's own check. */
    public static List<EvidenceRecord> of(CanaryBait bait, Optional<String> line, Optional<String> outside) {
        List<EvidenceRecord> out = new ArrayList<>();
        Optional<Map<CanaryKind, Verdict>> verdicts = line.flatMap(l -> parse(l, bait.nonce()));
        if (verdicts.isEmpty()) {
            out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(), ClaimTerm.OBSERVED, "canaries "
                    + bait.kinds() + " planned, but " + (line.isEmpty() ? "no canary record reached the supervisor"
                    : "the canary record does not carry this launch's nonce " + bait.nonce()) + ": no decision claimed"));
        }
        // The supervisor's own sight wins: a kind it saw get through is never claimed denied.
        Optional<CanaryKind> seen = outside.flatMap(o -> CanaryKind.ofToken(o.substring(0, Math.max(0, o.indexOf(':')))));
        for (CanaryKind k : bait.kinds()) {
            Verdict v = verdicts.map(m -> m.get(k)).orElse(null);
            if (v == null) {
                continue;
            }
            if (v.word().equals("denied") && seen.filter(k::equals).isEmpty()) {
                out.add(new EvidenceRecord(EvidenceKind.DECISION, Optional.of(k.domain()),
                        ClaimTerm.DENIED_BEFORE_EXECUTION, "canary " + bait.nonce() + ": " + bait.attempt(k)
                        + " was denied (errno " + v.errno() + ") inside sandlock's sandbox, by the process that then"
                        + " became the program, before it ran; the record is the first line of this launch's FIFO,"
                        + " written before the program existed"));
            } else {
                out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.of(k.domain()), ClaimTerm.OBSERVED,
                        "canary " + bait.nonce() + ": " + bait.attempt(k) + (v.word().equals("denied")
                        ? " was reported denied, but the supervisor saw it get through: no decision claimed"
                        : v.word().equals("passed")
                        ? " was NOT denied: the launch was refused before the program ran (exit 125)"
                        : " failed with errno " + v.errno() + ", which is not this boundary's denial: no decision"
                        + " claimed")));
            }
        }
        outside.ifPresent(o -> out.add(new EvidenceRecord(EvidenceKind.EXERCISED, Optional.empty(),
                ClaimTerm.OBSERVED, "seen by the supervisor after the canaries: " + o)));
        return out;
    }
}
