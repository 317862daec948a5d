package io.aasm.kernel.internal.transport;

import io.aasm.ports.evidence.EvidenceRecord;
import io.aasm.ports.transport.MediationSession;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The mediation session of one launch while it runs (or none). Closed exactly once: when the launch has ended
 * (its records then become evidence), or when it could not start. A mediator that throws while closing or
 * reporting costs the launch its mediation evidence, never its outcome.
 */
public final class OpenMediation {
    private static final OpenMediation NONE = new OpenMediation(Optional.empty(), false);

    private final Optional<MediationSession> session;
    private final boolean confined;
    private List<EvidenceRecord> records;

    private OpenMediation(Optional<MediationSession> session, boolean confined) {
        this.session = session;
        this.confined = confined;
    }

    public static OpenMediation none() {
        return NONE;
    }

    public static OpenMediation of(MediationSession session, boolean confined) {
        return new OpenMediation(Optional.of(session), confined);
    }

    public Optional<MediationSession> session() {
        return session;
    }

    /** The variables the program needs to use the session (empty without one). */
    public Map<String, String> environment() {
        try {
            return session.map(MediationSession::environment).orElse(Map.of());
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    /** Closes the session of a launch that ended and returns its evidence; idempotent. */
    public synchronized List<EvidenceRecord> finish() {
        if (records == null) {
            records = session.map(s -> {
                try {
                    s.close();
                    return MediationEvidence.records(s, confined);
                } catch (RuntimeException | LinkageError e) {
                    return List.<EvidenceRecord>of();
                }
            }).orElse(List.of());
        }
        return records;
    }

    /** Closes the session of a launch that never started. */
    public void abandon() {
        finish();
    }
}
