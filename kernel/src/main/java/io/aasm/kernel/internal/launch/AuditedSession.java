package io.aasm.kernel.internal.launch;

import io.aasm.ports.trace.LaunchStages;
import io.aasm.kernel.internal.audit.Auditor;
import io.aasm.kernel.internal.audit.LaunchFacts;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.report.IsolationReport;
import java.util.Optional;

/**
 * A session whose end is recorded in the audit log before {@link #await()} returns: the caller learns the
 * program's status only once its record is on disk (or why it is not).
 *
 * <p>The post-run report recorded is the one {@link #postRunReport()} returns afterwards: the caller's report and
 * the audit record say the same, and the report (the backend's evidence, its descriptor and privilege reads, the
 * projection) is built once per launch instead of twice.
 */
public final class AuditedSession implements LaunchSession {
    private final LaunchSession session;
    private final Auditor auditor;
    private final LaunchFacts facts;
    private Optional<String> problem = Optional.empty();
    private boolean written;
    private boolean recorded;
    /** The post-run report recorded by {@link #await()}; null until then. */
    private IsolationReport recordedReport;

    public AuditedSession(LaunchSession session, Auditor auditor, LaunchFacts facts) {
        this.session = session;
        this.auditor = auditor;
        this.facts = facts;
    }

    @Override
    public ExitDisposition await() throws InterruptedException {
        ExitDisposition done = session.await();
        LaunchStages.mark("awaited");
        synchronized (this) {
            if (!recorded) {
                recorded = true;
                IsolationReport post = session.postRunReport();
                recordedReport = post;
                LaunchStages.mark("report_post");
                Auditor.Outcome outcome = auditor.record(facts, post);
                LaunchStages.mark("audit_append");
                problem = outcome.problem();
                written = outcome.written();
            }
        }
        return done;
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        return session.terminate(request);
    }

    @Override
    public boolean signal(int signal) {
        return session.signal(signal);
    }

    @Override
    public IsolationReport postRunReport() {
        synchronized (this) {
            if (recordedReport != null) {
                return recordedReport;
            }
        }
        return session.postRunReport();
    }

    @Override
    public synchronized Optional<String> auditProblem() {
        return problem;
    }

    @Override
    public synchronized Optional<String> auditRecord() {
        return written ? Optional.of(facts.launchId()) : Optional.empty();
    }
}
