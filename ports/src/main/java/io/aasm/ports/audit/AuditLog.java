package io.aasm.ports.audit;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * An append-only log of launches. The kernel appends one record per launch that ran (or failed to start)
 * and treats the launch as done only once {@link #append} returned: a record that was acknowledged is on
 * disk. Reading and verifying are for the operator's commands.
 */
@ConsumerType
public interface AuditLog {
    /** Appends and flushes one record; returns its id (the launch id). */
    String append(LaunchAudit launch) throws IOException;

    /** The latest {@code n} records, oldest first, as stored (one JSON document each). */
    List<String> tail(int n) throws IOException;

    /** The record of one launch, as stored. */
    Optional<String> show(String launchId) throws IOException;

    /** Checks every record against the chain: an edited, removed or reordered record is a problem. */
    AuditCheck verify() throws IOException;
}
