package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.audit.Auditor;
import io.aasm.kernel.internal.audit.LaunchFacts;
import io.aasm.kernel.internal.audit.PolicyDigests;
import io.aasm.kernel.internal.launch.AuditedSession;
import io.aasm.kernel.internal.launch.ConfinedSession;
import io.aasm.kernel.internal.launch.UnconfinedSession;
import io.aasm.kernel.internal.report.PostRunReports;
import io.aasm.kernel.internal.selection.InstalledBackend;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.report.IsolationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * launch(): only a Confined or Unconfined decision runs. Anything that fails before the program
 * started is a LaunchException with its kind (not found, not executable, backend error), and
 * nothing is left running: a prepared launch that is not spawned is closed.
 */
final class Launcher {

    private final PostRunReports postRun = new PostRunReports();
    private final PolicyDigests digests = new PolicyDigests();
    private final Auditor auditor;

    Launcher(Auditor auditor) {
        this.auditor = auditor;
    }

    /**
     * Starts the decided launch; the session records it in the audit log when it ends. A launch that fails
     * before its program started is recorded as not started, then the failure is thrown.
     */
    LaunchSession launch(LaunchDecision decision, List<InstalledBackend> backends) throws LaunchException {
        if (!(decision instanceof LaunchDecision.Unconfined || decision instanceof LaunchDecision.Confined)) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED,
                    "a refused decision cannot be launched; nothing was started");
        }
        IsolationReport pre = decision instanceof LaunchDecision.Confined c ? c.report()
                : ((LaunchDecision.Unconfined) decision).report();
        List<String> args = decision instanceof LaunchDecision.Confined c ? c.plan().spec().args()
                : ((LaunchDecision.Unconfined) decision).spec().args();
        LaunchFacts facts = LaunchFacts.starting(args, digests.of(pre.policyOrigin()));
        try {
            return new AuditedSession(start(decision, backends), auditor, facts);
        } catch (LaunchException e) {
            auditor.record(facts, postRun.postRun(pre, Optional.empty(), new ExitDisposition.NotStarted(e.kind(),
                    e.getMessage()), Optional.empty(), pre.descriptors(), pre.authority()));
            throw e;
        }
    }

    private LaunchSession start(LaunchDecision decision, List<InstalledBackend> backends) throws LaunchException {
        if (decision instanceof LaunchDecision.Unconfined u) {
            startable(u.spec().workingDirectory(), u.notRunnable());
            return UnconfinedSession.start(u.spec(), u.report(), postRun);
        }
        LaunchDecision.Confined c = (LaunchDecision.Confined) decision;
        startable(c.plan().spec().workingDirectory(), c.notRunnable());
        String id = c.plan().backend().id();
        IsolationBackend backend = backends.stream().filter(b -> b.id().equals(id)).findFirst()
                .map(InstalledBackend::backend)
                .orElseThrow(() -> new LaunchException(LaunchFailureKind.BACKEND_ERROR,
                        "the `" + id + "` backend is no longer installed; nothing was started"));
        PreparedLaunch prepared;
        try {
            prepared = backend.prepare(c.plan());
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
        return new ConfinedSession(execution, c.report(), postRun);
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
