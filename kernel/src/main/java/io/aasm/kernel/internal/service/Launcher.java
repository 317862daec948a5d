package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.launch.ConfinedSession;
import io.aasm.kernel.internal.launch.UnconfinedSession;
import io.aasm.kernel.internal.report.PostRunReports;
import io.aasm.kernel.internal.selection.InstalledBackend;
import io.aasm.ports.backend.ExecutionHandle;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedExecution;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * launch(): only a Confined or Unconfined decision runs. Anything that fails before the program
 * started is a LaunchException with its kind (not found, not executable, backend error), and
 * nothing is left running.
 */
final class Launcher {

    private final PostRunReports postRun = new PostRunReports();

    LaunchSession launch(LaunchDecision decision, Optional<PendingLaunches.Pending> pending,
                         List<InstalledBackend> backends) throws LaunchException {
        if (decision instanceof LaunchDecision.PolicyRejected || decision instanceof LaunchDecision.Refused) {
            throw new LaunchException(LaunchFailureKind.BOUNDARY_REFUSED,
                    "a refused decision cannot be launched; nothing was started");
        }
        String workdir = decision instanceof LaunchDecision.Confined c0 ? c0.plan().spec().workingDirectory()
                : pending.map(p -> p.spec().workingDirectory()).orElse("/");
        if (!Files.isDirectory(Path.of(workdir))) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the working directory " + workdir
                    + " is not a directory; nothing was started");
        }
        if (pending.isPresent() && pending.get().failure().isPresent()) {
            PendingLaunches.Failure f = pending.get().failure().get();
            throw new LaunchException(f.kind(), f.detail());
        }
        if (decision instanceof LaunchDecision.Unconfined u) {
            if (pending.isEmpty()) {
                throw new LaunchException(LaunchFailureKind.BACKEND_ERROR,
                        "this unconfined decision was not made by this kernel; call decide() first");
            }
            return UnconfinedSession.start(pending.get().spec(), u.report(), postRun);
        }
        LaunchDecision.Confined c = (LaunchDecision.Confined) decision;
        String id = c.plan().backend().id();
        IsolationBackend backend = backends.stream().filter(b -> b.id().equals(id)).findFirst()
                .map(InstalledBackend::backend)
                .orElseThrow(() -> new LaunchException(LaunchFailureKind.BACKEND_ERROR,
                        "the `" + id + "` backend is no longer installed; nothing was started"));
        PreparedExecution prepared;
        try {
            prepared = backend.prepare(c.plan());
        } catch (RuntimeException | LinkageError e) {
            throw fault(id, "prepare()", e);
        }
        if (prepared == null) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the `" + id + "` backend's prepare()"
                    + " returned nothing; nothing was started");
        }
        ExecutionHandle handle;
        try {
            handle = backend.spawn(prepared);
        } catch (RuntimeException | LinkageError e) {
            throw fault(id, "spawn()", e);
        }
        if (handle == null) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the `" + id + "` backend's spawn() returned"
                    + " no handle");
        }
        return new ConfinedSession(backend, handle, c.report(), postRun);
    }

    private static LaunchException fault(String id, String call, Throwable e) {
        return new LaunchException(LaunchFailureKind.BACKEND_ERROR, "the `" + id + "` backend failed: " + call
                + " threw " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
}
