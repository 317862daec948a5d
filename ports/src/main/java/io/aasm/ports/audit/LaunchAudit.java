package io.aasm.ports.audit;

import io.aasm.ports.report.IsolationReport;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the kernel hands the audit log about one launch: its id, when it ran, the digest of its arguments
 * (never the arguments), the policy file's digest, and the post-run report.
 */
public record LaunchAudit(String launchId, Instant startedAt, Instant endedAt, String argumentsSha256,
                          Optional<String> policySha256, IsolationReport report) {
    public LaunchAudit {
        Objects.requireNonNull(launchId);
        Objects.requireNonNull(startedAt);
        Objects.requireNonNull(endedAt);
        Objects.requireNonNull(argumentsSha256);
        Objects.requireNonNull(policySha256);
        Objects.requireNonNull(report);
    }
}
