package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.backend.Stdio;
import java.util.concurrent.atomic.AtomicBoolean;

/** A launch lowered and checked, nothing started yet; spawning starts its VM. Spawned at most once. */
final class VmPreparedLaunch implements PreparedLaunch {
    private final String backendId;
    private final VmLaunch launch;
    private final java.util.Optional<VmStarts.Mediated> mediated;
    private final Stdio stdio;
    private final VmStarts starts;
    private final String hypervisor;
    private final AtomicBoolean used = new AtomicBoolean();

    VmPreparedLaunch(String backendId, VmLaunch launch, java.util.Optional<VmStarts.Mediated> mediated, Stdio stdio,
                     VmStarts starts, String hypervisor) {
        this.backendId = backendId;
        this.launch = launch;
        this.mediated = mediated;
        this.stdio = stdio;
        this.starts = starts;
        this.hypervisor = hypervisor;
    }

    @Override
    public Execution spawn() throws LaunchException {
        if (!used.compareAndSet(false, true)) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "this preparation was already spawned or closed");
        }
        Started s = starts.start(launch, mediated);
        int[] fds = HostStdio.fds(stdio);
        s.session().relay(HostStdio.input(fds[0]), HostStdio.output(fds[1]), HostStdio.output(fds[2]));
        return new VmExecution(backendId, s, hypervisor);
    }

    @Override
    public void close() {
        used.set(true); // nothing was made outside the plan: no VM runs before spawn
    }
}
