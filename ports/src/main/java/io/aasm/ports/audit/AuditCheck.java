package io.aasm.ports.audit;

import java.util.List;

/** The outcome of verifying a log: how many records, and every problem found (none: intact). */
public record AuditCheck(long records, List<String> problems) {
    public AuditCheck {
        problems = List.copyOf(problems);
    }

    public boolean intact() {
        return problems.isEmpty();
    }
}
