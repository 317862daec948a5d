package io.aasm.kernel.internal.launch;

import io.aasm.kernel.internal.report.PostRunReports;
import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.ports.backend.ExecutionHandle;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IsolationBackend;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.report.DescriptorInventory;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.report.ProcessAuthority;
import java.util.Optional;

/** A launch inside a backend's boundary. Every backend call is guarded; a throw is reported, not propagated. */
public final class ConfinedSession implements LaunchSession {

    private final IsolationBackend backend;
    private final ExecutionHandle handle;
    private final IsolationReport pre;
    private final PostRunReports postRun;
    private volatile ExitDisposition exit;

    public ConfinedSession(IsolationBackend backend, ExecutionHandle handle, IsolationReport pre,
                           PostRunReports postRun) {
        this.backend = backend;
        this.handle = handle;
        this.pre = pre;
        this.postRun = postRun;
    }

    @Override
    public ExitDisposition await() throws InterruptedException {
        ExitDisposition done = exit;
        if (done == null) {
            try {
                done = backend.waitFor(handle);
                if (done == null) {
                    done = new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR,
                            "the backend returned no exit disposition");
                }
            } catch (RuntimeException | LinkageError e) {
                done = new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR,
                        "supervision failed: waitFor() threw " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            exit = done;
        }
        return done;
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        try {
            return backend.terminate(handle, request);
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    @Override
    public boolean signal(int signal) {
        try {
            return backend.signal(handle, signal);
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    @Override
    public IsolationReport postRunReport() {
        ExitDisposition done = exit;
        if (done == null) {
            throw new IllegalStateException("postRunReport() is only meaningful after await() returned");
        }
        Optional<EnforcementEvidence> evidence;
        Optional<String> fault = Optional.empty();
        try {
            evidence = Optional.ofNullable(backend.evidence(handle));
            if (evidence.isEmpty()) {
                fault = Optional.of("the backend's evidence() returned nothing");
            }
        } catch (RuntimeException | LinkageError e) {
            evidence = Optional.empty();
            fault = Optional.of("evidence() threw " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        Guarded<Optional<DescriptorInventory>> taken = Guarded.call("descriptorInventory()",
                () -> backend.descriptorInventory(handle));
        Optional<DescriptorInventory> inventory = taken instanceof Guarded.Ok<Optional<DescriptorInventory>> ok
                ? ok.value() : Optional.empty();
        Guarded<Optional<ProcessAuthority>> measured = Guarded.call("authority()", () -> backend.authority(handle));
        Optional<ProcessAuthority> authority = measured instanceof Guarded.Ok<Optional<ProcessAuthority>> held
                ? held.value() : Optional.empty();
        // Keep what was planned when the backend measured nothing of its own at launch.
        return postRun.postRun(pre, evidence, done, fault, inventory.or(pre::descriptors),
                authority.or(pre::authority));
    }
}
