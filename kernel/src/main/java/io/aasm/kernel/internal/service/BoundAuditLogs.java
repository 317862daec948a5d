package io.aasm.kernel.internal.service;

import io.aasm.ports.audit.AuditLog;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The bound audit logs (bound directly: a launch writes to every one, so there is nothing to defer).
 * Copy-on-write: a launch's audit record goes to the list it read, a bind or unbind replaces it.
 */
final class BoundAuditLogs implements Supplier<List<AuditLog>> {
    private volatile List<AuditLog> logs = List.of();

    synchronized void add(AuditLog log) {
        List<AuditLog> next = new ArrayList<>(logs);
        next.add(log);
        logs = List.copyOf(next);
    }

    synchronized void remove(AuditLog log) {
        logs = logs.stream().filter(l -> l != log).toList();
    }

    @Override
    public List<AuditLog> get() {
        return logs;
    }
}
