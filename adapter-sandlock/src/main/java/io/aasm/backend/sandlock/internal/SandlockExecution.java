package io.aasm.backend.sandlock.internal;

import io.aasm.backend.sandlock.internal.supervise.SandlockRun;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.DescriptorInventory;
import java.util.Optional;

/** One guarded sandlock run: the setup it was prepared with, and what its guard reported. */
final class SandlockExecution implements Execution {
    private static final int SIGWINCH = 28;
    private final Launches.Prepared prepared;
    private final SandlockRun run;
    private final HostState host;
    private final Runnable ended;

    SandlockExecution(Launches.Prepared prepared, SandlockRun run, HostState host, Runnable ended) {
        this.prepared = prepared;
        this.run = run;
        this.host = host;
        this.ended = ended;
    }

    @Override
    public ExitDisposition await() throws InterruptedException {
        ExitDisposition d = run.waitFor().mapped().disposition();
        ended.run();
        return d;
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        return run.terminate(request);
    }

    /** SIGWINCH: the guard copies the caller's window size to the launch's own terminal. */
    @Override
    public boolean signal(int signal) {
        return signal == SIGWINCH && run.winch();
    }

    @Override
    public EnforcementEvidence evidence() {
        return new EnforcementEvidence("sandlock", RunEvidence.of(prepared, run, host.teardown().describe()));
    }

    /** The guard's inventory of what it inherited and sealed, plus the status descriptor's verdict. */
    @Override
    public Optional<DescriptorInventory> descriptors() {
        return run.report().inventory().map(inv -> Descriptors.taken(inv, host.probes(false)));
    }
}
