package io.aasm.kernel.internal.audit;

import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.ports.audit.AuditLog;
import io.aasm.ports.audit.LaunchAudit;
import io.aasm.ports.report.IsolationReport;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Hands each finished launch to every installed audit log and says what could not be written. A log is
 * third-party code like any adapter: whatever it throws becomes a named problem, never a kernel failure.
 */
public final class Auditor {
    private final Supplier<List<AuditLog>> logs;

    public Auditor(Supplier<List<AuditLog>> logs) {
        this.logs = logs;
    }

    /** What became of one launch's record: written by every installed log, and the problems of those that failed. */
    public record Outcome(boolean written, Optional<String> problem) {
    }

    /** Records the launch in every installed log. */
    public Outcome record(LaunchFacts facts, IsolationReport postRun) {
        List<AuditLog> installed = logs.get();
        if (installed.isEmpty()) {
            return new Outcome(false, Optional.empty());
        }
        LaunchAudit audit = new LaunchAudit(facts.launchId(), facts.startedAt(), Instant.now(), facts.argumentsSha256(),
                facts.policySha256(), postRun);
        List<String> problems = new ArrayList<>();
        for (AuditLog log : installed) {
            try {
                log.append(audit);
            } catch (IOException e) {
                problems.add("the audit record was not written: " + e.getMessage());
            } catch (RuntimeException | LinkageError e) {
                problems.add("the audit log failed: " + Guarded.describe("append()", e));
            }
        }
        return problems.isEmpty() ? new Outcome(true, Optional.empty())
                : new Outcome(false, Optional.of(String.join("; ", problems)));
    }
}
