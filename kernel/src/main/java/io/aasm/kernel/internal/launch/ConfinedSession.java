package io.aasm.kernel.internal.launch;

import io.aasm.kernel.internal.report.PostRunReports;
import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.kernel.internal.transport.MediationEvidence;
import io.aasm.kernel.internal.transport.OpenMediation;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.kernel.LaunchSession;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.report.IsolationReport;
import io.aasm.ports.evidence.ProcessAuthority;
import java.util.Optional;

/**
 * A launch inside a backend's boundary. Every backend call is guarded; a throw is reported, not propagated. A
 * mediated launch's session is closed once the tree is gone; its records join the backend's evidence.
 */
public final class ConfinedSession implements LaunchSession {

    private final Execution execution;
    private final IsolationReport pre;
    private final PostRunReports postRun;
    private final OpenMediation mediation;
    private volatile ExitDisposition exit;

    public ConfinedSession(Execution execution, IsolationReport pre, PostRunReports postRun) {
        this(execution, pre, postRun, OpenMediation.none());
    }

    public ConfinedSession(Execution execution, IsolationReport pre, PostRunReports postRun, OpenMediation mediation) {
        this.execution = execution;
        this.pre = pre;
        this.postRun = postRun;
        this.mediation = mediation;
    }

    @Override
    public ExitDisposition await() throws InterruptedException {
        ExitDisposition done = exit;
        if (done == null) {
            try {
                done = execution.await();
                if (done == null) {
                    done = new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR,
                            "the backend returned no exit disposition");
                }
            } catch (RuntimeException | LinkageError e) {
                done = new ExitDisposition.NotStarted(LaunchFailureKind.BACKEND_ERROR,
                        "supervision failed: await() threw " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            mediation.finish(); // the tree and its relay are gone: every connection attempt is over
            exit = done;
        }
        return done;
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        try {
            return execution.terminate(request);
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    @Override
    public boolean signal(int signal) {
        try {
            return execution.signal(signal);
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
            evidence = Optional.ofNullable(execution.evidence());
            if (evidence.isEmpty()) {
                fault = Optional.of("the backend's evidence() returned nothing");
            }
        } catch (RuntimeException | LinkageError e) {
            evidence = Optional.empty();
            fault = Optional.of("evidence() threw " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        Guarded<Optional<DescriptorInventory>> taken = Guarded.call("descriptors()",
                execution::descriptors);
        Optional<DescriptorInventory> inventory = taken instanceof Guarded.Ok<Optional<DescriptorInventory>> ok
                ? ok.value() : Optional.empty();
        Guarded<Optional<ProcessAuthority>> measured = Guarded.call("authority()", execution::authority);
        Optional<ProcessAuthority> authority = measured instanceof Guarded.Ok<Optional<ProcessAuthority>> held
                ? held.value() : Optional.empty();
        if (mediation.session().isPresent()) {
            evidence = Optional.of(MediationEvidence.merged(evidence, mediation.finish()));
        }
        // Keep what was planned when the backend measured nothing of its own at launch.
        return postRun.postRun(pre, evidence, done, fault, inventory.or(pre::descriptors),
                authority.or(pre::authority));
    }
}
