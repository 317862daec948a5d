package io.aasm.cli.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/** The exit statuses scripts can rely on (docker/podman/env conventions), shown in every --help. */
final class ExitCodes {
    static final int OK = 0;
    static final int POLICY_INVALID = 1;
    /** conformance: the suite ran and at least one cell fails. */
    static final int SUITE_FAILED = 1;
    static final int USAGE = 2;
    /** daemon status: no resident kernel answers (LSB "program is not running"). */
    static final int NOT_RUNNING = 3;
    /**
     * sysexits.h EX_IOERR: the program ran and exited 0, but the --report-file or its audit record could not
     * be written; also {@code audit verify}: the log is not intact.
     */
    static final int REPORT_NOT_WRITTEN = 74;
    /**
     * sysexits.h EX_TEMPFAIL: the resident kernel is at a bound (connections, launch queue); nothing ran,
     * try again. Said by bin/aasm-client on the kernel's {@code B} answer (docs/resident.md, "Bounds").
     */
    static final int TRY_AGAIN = 75;
    static final int FAILED_BEFORE_START = 125;
    static final int NOT_EXECUTABLE = 126;
    static final int NOT_FOUND = 127;

    private ExitCodes() {
    }

    static Map<String, String> table() {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("0", "success (run exec: the program exited 0)");
        t.put("N", "run exec: the program's own exit status");
        t.put("128+N", "run exec: the program was killed by signal N");
        t.put("1", "policy check: the policy is invalid; conformance: at least one cell fails; audit show: no"
                + " record of that launch");
        t.put("2", "command-line usage error");
        t.put("3", "daemon status: no resident kernel is running");
        t.put("74", "run exec: the program exited 0 but the --report-file or its audit record could not be written"
                + " (a failing program keeps its own status); audit verify: the log was edited, truncated or reordered");
        t.put("75", "the resident kernel is at a bound (connections, launch queue); nothing ran: try again later");
        t.put("125", "aasm refused or failed before the program started (refusal, bad policy, backend error;"
                + " also when the report of a program that never ran could not be written)");
        t.put("126", "the program could not be executed");
        t.put("127", "the program was not found");
        return t;
    }
}
