package io.aasm.cli.internal;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.report.ControlState;
import io.aasm.ports.report.IsolationReport;

/** The one-line posture summary a live run prints on stderr, e.g. {@code posture=READY backend=x prevention=7/9 exit=0}. */
final class PostureLine {
    private PostureLine() {
    }

    static String of(IsolationReport report, int status) {
        long prevention = report.domains().stream().filter(d -> d.state() instanceof ControlState.Prevention).count();
        return "posture=" + report.posture().name()
                + " backend=" + report.backend().map(BackendIdentity::id).orElse("none")
                + " prevention=" + prevention + "/" + report.domains().size()
                + " exit=" + status;
    }
}
