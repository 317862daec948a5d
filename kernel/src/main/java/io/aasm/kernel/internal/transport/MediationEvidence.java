package io.aasm.kernel.internal.transport;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.ClaimTerm;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.MediationTally;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A closed mediation session as evidence: one DECISION record per connection attempt (its JSON line; a denial is
 * {@code denied_before_execution}: nothing was dialled) and one summary. In a confined launch they belong to the
 * network egress row; without a boundary they are run-level facts, since no boundary's row may rest on them.
 */
public final class MediationEvidence {
    /** Records listed in a report; the session's decision log has every one. */
    public static final int LISTED = 200;
    static final String SOURCE = "transport-mediation";

    private MediationEvidence() {
    }

    public static List<EvidenceRecord> records(MediationSession session, boolean confined) {
        Optional<CapabilityDomain> domain = confined ? Optional.of(CapabilityDomain.NETWORK_EGRESS) : Optional.empty();
        List<EvidenceRecord> out = new ArrayList<>();
        List<EgressDecision> decisions = session.decisions();
        for (EgressDecision d : decisions.subList(0, Math.min(LISTED, decisions.size()))) {
            out.add(new EvidenceRecord(EvidenceKind.DECISION, domain, d.denied() ? ClaimTerm.DENIED_BEFORE_EXECUTION
                    : ClaimTerm.EVALUATED, "transport mediation decision " + d.toJsonLine()));
        }
        MediationTally t = session.tally();
        String listed = t.attempts() > out.size() ? "; the first " + out.size() + " are listed above" : "";
        out.add(new EvidenceRecord(EvidenceKind.EXERCISED, domain, ClaimTerm.OBSERVED, "transport mediation of launch "
                + session.launchId() + ": " + t.attempts() + " connection attempt(s) reached the supervisor's proxy, "
                + t.allowed() + " allowed, " + t.denied() + " denied; " + t.bytesUp() + " bytes sent, " + t.bytesDown()
                + " bytes received" + listed + session.decisionLog().map(p -> "; decision log: " + p).orElse("")
                + (confined ? "; connections that bypassed the proxy had no route out of the boundary and are not "
                + "recorded one by one" : "; the program was not confined, so connections that bypassed the proxy "
                + "were neither stopped nor recorded")));
        return out;
    }

    /** The backend's evidence with the mediation's appended (or the mediation's alone, when the backend has none). */
    public static EnforcementEvidence merged(Optional<EnforcementEvidence> backend, List<EvidenceRecord> mediation) {
        if (backend.isEmpty()) {
            return new EnforcementEvidence(SOURCE, mediation);
        }
        List<EvidenceRecord> all = new ArrayList<>(backend.get().records());
        all.addAll(mediation);
        return new EnforcementEvidence(backend.get().backendId(), all);
    }
}
