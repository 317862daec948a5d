package io.aasm.cli.internal.resident;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a connection's peer runs inside a boundary the kernel itself is not in, with every signal
 * that said so. Empty reasons mean "not confined relative to the kernel": only such a caller is served.
 */
record CallerVerdict(long pid, List<String> reasons) {
    CallerVerdict {
        reasons = List.copyOf(reasons);
    }

    boolean confined() {
        return !reasons.isEmpty();
    }

    CallerVerdict plus(String reason) {
        List<String> all = new ArrayList<>(reasons);
        all.add(reason);
        return new CallerVerdict(pid, all);
    }

    /** The reasons in one line, for the caller's message and the kernel's log. */
    String why() {
        return String.join("; ", reasons);
    }
}
