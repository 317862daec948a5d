package io.aasm.kernel.internal.service;

import io.aasm.ports.trace.LaunchStages;
import io.aasm.kernel.internal.audit.Auditor;
import io.aasm.kernel.internal.audit.LaunchFacts;
import io.aasm.kernel.internal.audit.PolicyDigests;
import io.aasm.kernel.internal.launch.AuditedSession;
import io.aasm.kernel.internal.launch.ConfinedSession;
import io.aasm.kernel.internal.launch.UnconfinedSession;
import io.aasm.kernel.internal.report.PostRunReports;
import io.aasm.kernel.internal.selection.InstalledBackend;
import io.aasm.kernel.internal.transport.MediationRequests;
import io.aasm.kernel.internal.transport.OpenMediation;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.transport.MediationAccess;
import io.aasm.ports.transport.MediationException;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.TransportMediator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * launch(): only a Confined or Unconfined decision runs. Anything that fails before the program
 * started is a LaunchException with its kind (not found, not executable, backend error), and
 * nothing is left running: a prepared launch that is not spawned is closed, and so is the transport
 * mediation session a mediated launch opens just before the backend prepares it.
 */
final class LaunchRunner {

    private final PostRunReports postRun = new PostRunReports();
    private final PolicyDigests digests = new PolicyDigests();
    private final Auditor auditor;

    LaunchRunner(Auditor auditor) {
        this.auditor = auditor;
    }

    /**
     * Starts the decided launch; the session records it in the audit log when it ends. A launch that fails
     * before its program started is recorded as not started, then the failure is thrown.
     */
    LaunchSession launch(LaunchDecision decision, List<InstalledBackend> backends) throws LaunchException {
        return launch(decision, backends, Optional.empty());
    }

    /** {@code mediator}: the supervisor's transport mediation, opened for a launch whose spec asks for it. */
    LaunchSession launch(LaunchDecision decision, List<InstalledBackend> backends, Optional<TransportMediator> mediator)
            throws LaunchException {
        if (!(decision instanceof LaunchDecision.Unconfined || decision instanceof LaunchDecision.Confined)) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED,
                    "a refused decision cannot be launched; nothing was started");
        }
        IsolationReport pre = decision instanceof LaunchDecision.Confined c ? c.report()
                : ((LaunchDecision.Unconfined) decision).report();
        List<String> args = decision instanceof LaunchDecision.Confined c ? c.plan().spec().args()
                : ((LaunchDecision.Unconfined) decision).spec().args();
        LaunchFacts facts = LaunchFacts.starting(args, digests.of(pre.policyOrigin()));
        LaunchStages.mark("policy_digest");
        try {
            return new AuditedSession(start(decision, backends, mediator), auditor, facts);
        } catch (LaunchException e) {
            auditor.record(facts, postRun.postRun(pre, Optional.empty(), new ExitDisposition.NotStarted(e.kind(),
                    e.getMessage()), Optional.empty(), pre.descriptors(), pre.authority()));
            throw e;
        }
    }

    private LaunchSession start(LaunchDecision decision, List<InstalledBackend> backends,
                                Optional<TransportMediator> mediator) throws LaunchException {
        if (decision instanceof LaunchDecision.Unconfined u) {
            startable(u.spec().workingDirectory(), u.notRunnable());
            OpenMediation m = u.spec().transport().mediated()
                    ? open(mediator, u.spec(), MediationAccess.LOOPBACK, false) : OpenMediation.none();
            try {
                return UnconfinedSession.start(u.spec(), m, u.report(), postRun);
            } catch (LaunchException | RuntimeException e) {
                m.abandon();
                throw e;
            }
        }
        LaunchDecision.Confined c = (LaunchDecision.Confined) decision;
        startable(c.plan().spec().workingDirectory(), c.notRunnable());
        String id = c.plan().backend().id();
        InstalledBackend installed = backends.stream().filter(b -> b.id().equals(id)).findFirst()
                .orElseThrow(() -> new LaunchException(LaunchFailureKind.BACKEND_ERROR,
                        "the `" + id + "` backend is no longer installed; nothing was started"));
        IsolationBackend backend;
        try {
            backend = installed.backend(); // active already: the decision asked it for its plan
        } catch (RuntimeException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, e.getMessage() + "; nothing was started");
        }
        EnforcementPlan plan = c.plan();
        OpenMediation m = plan.mediated() ? open(mediator, plan.spec(), MediationAccess.RELAY, true)
                : OpenMediation.none();
        if (m.session().isPresent()) {
            plan = plan.withMediation(m.session().get());
        }
        try {
            return new ConfinedSession(start(backend, id, plan), c.report(), postRun, m);
        } catch (LaunchException | RuntimeException e) {
            m.abandon();
            throw e;
        }
    }

    private static Execution start(IsolationBackend backend, String id, EnforcementPlan plan) throws LaunchException {
        PreparedLaunch prepared;
        try {
            prepared = backend.prepare(plan);
            LaunchStages.mark("prepare");
        } catch (RuntimeException | LinkageError e) {
            throw fault(id, "prepare()", e);
        }
        if (prepared == null) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the `" + id + "` backend's prepare()"
                    + " returned nothing; nothing was started");
        }
        Execution execution;
        try {
            execution = prepared.spawn();
        } catch (RuntimeException | LinkageError e) {
            throw fault(id, "spawn()", e);
        } finally {
            closeQuietly(prepared);
        }
        if (execution == null) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the `" + id + "` backend's spawn() returned"
                    + " no execution");
        }
        return execution;
    }

    /** The launch's mediation session; a mediator that is gone or cannot listen refuses the launch. */
    private static OpenMediation open(Optional<TransportMediator> mediator, ExecutionSpec spec, MediationAccess access,
                                      boolean confined) throws LaunchException {
        if (mediator.isEmpty()) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "this launch's traffic is to be mediated, "
                    + "but the transport mediator is no longer installed; nothing was started");
        }
        MediationSession s;
        try {
            s = mediator.get().open(MediationRequests.of(spec, access));
        } catch (MediationException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, e.getMessage() + "; nothing was started", e);
        } catch (RuntimeException | LinkageError e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the transport mediator failed: open() threw "
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + "; nothing was started", e);
        }
        if (s == null) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the transport mediator opened no session; "
                    + "nothing was started");
        }
        return OpenMediation.of(s, confined);
    }

    private static void startable(String workdir, Optional<ExitDisposition.NotStarted> notRunnable)
            throws LaunchException {
        if (!Files.isDirectory(Path.of(workdir))) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the working directory " + workdir
                    + " is not a directory; nothing was started");
        }
        if (notRunnable.isPresent()) {
            throw new LaunchException(notRunnable.get().kind(), notRunnable.get().detail());
        }
    }

    // Closing after spawn is a no-op by contract; after a failed spawn it releases what prepare() opened.
    private static void closeQuietly(PreparedLaunch prepared) {
        try {
            prepared.close();
        } catch (RuntimeException | LinkageError ignored) {
            // a backend that cannot release its preparation has nothing more to tell this launch
        }
    }

    private static LaunchException fault(String id, String call, Throwable e) {
        return new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the `" + id + "` backend failed: " + call
                + " threw " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
}
