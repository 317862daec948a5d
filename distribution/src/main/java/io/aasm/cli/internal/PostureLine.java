package io.aasm.cli.internal;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.IsolationReport;

/** The one-line posture summary a live run prints on stderr, e.g. {@code posture=READY backend=x prevention=7/9 exit=0}. */
final class PostureLine {
    /** The report's outcome disposition of a program that never ran (see the kernel's post-run report). */
    private static final String NOT_STARTED = "not_started";

    private PostureLine() {
    }

    static String of(IsolationReport report, int status) {
        return line(posture(report), report, status);
    }

    /** The line of a launch that failed before its program ran (the report is the pre-launch one). */
    static String notStarted(IsolationReport report, int status) {
        return line("NOT_STARTED", report, status);
    }

    private static String line(String posture, IsolationReport report, int status) {
        long prevention = report.domains().stream().filter(d -> d.state() instanceof ControlState.Prevention).count();
        return "posture=" + posture
                + " backend=" + report.backend().map(BackendIdentity::id).orElse("none")
                + " prevention=" + prevention + "/" + report.domains().size()
                + " exit=" + status;
    }

    /**
     * The report's posture, except for a launch whose program never started: a boundary that was built
     * around nothing is not a READY launch, and scripts that grep for READY must not count it as one.
     */
    private static String posture(IsolationReport report) {
        boolean notStarted = report.outcome().map(o -> o.disposition().equals(NOT_STARTED)).orElse(false);
        return notStarted ? "NOT_STARTED" : report.posture().name();
    }
}
