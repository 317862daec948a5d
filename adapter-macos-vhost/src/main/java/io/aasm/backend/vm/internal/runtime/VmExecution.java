package io.aasm.backend.vm.internal.runtime;

import io.aasm.backend.vm.internal.guest.GuestEnd;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.evidence.ProcessAuthority;
import io.aasm.ports.trace.LaunchStages;
import java.util.Optional;

/**
 * A program running in its guest. Its end is the agent's exit frame; the host then kills the VM, which is
 * the teardown of the whole tree. The wall clock is the host's: past it the VM is killed, whatever runs.
 */
public final class VmExecution implements Execution {
    private static final int SIGTERM = 15;
    private static final int TREE = 2;

    private final String backendId;
    private final Started started;
    private final String hypervisor;
    private volatile boolean deadlineHit;
    private volatile boolean killed;
    private ExitDisposition disposition;
    private GuestEnd end;

    VmExecution(String backendId, Started started, String hypervisor) {
        this.backendId = backendId;
        this.started = started;
        this.hypervisor = hypervisor;
    }

    @Override
    public synchronized ExitDisposition await() throws InterruptedException {
        if (disposition != null) {
            return disposition;
        }
        long wait = Long.MAX_VALUE;
        if (started.launch().wallClockSeconds().isPresent()) {
            long spent = (System.nanoTime() - started.startNanos()) / 1_000_000L;
            wait = Math.max(0, started.launch().wallClockSeconds().getAsLong() * 1000L - spent);
        }
        Optional<GuestEnd> e = started.session().awaitEnd(wait);
        LaunchStages.mark("vm_exit");
        if (e.isEmpty()) {
            deadlineHit = true;
        }
        started.kill(); // host-driven teardown: nothing of the tree outlives the VM
        LaunchStages.mark("vm_teardown");
        started.session().abandon("the VM was killed");
        end = e.orElse(new GuestEnd.Lost("the wall-clock ceiling was reached"));
        disposition = map(end);
        return disposition;
    }

    private ExitDisposition map(GuestEnd e) {
        if (deadlineHit || killed) {
            return new ExitDisposition.Signalled(9);
        }
        if (e instanceof GuestEnd.Exited x) {
            return new ExitDisposition.Exited(x.code());
        }
        if (e instanceof GuestEnd.Signalled s) {
            return new ExitDisposition.Signalled(s.signal());
        }
        return new ExitDisposition.Signalled(9); // the VM died under the program: its tree went with it
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        if (started.session().ended().isPresent()) {
            return false;
        }
        if (request == TerminationRequest.GRACEFUL) {
            return started.session().signal(SIGTERM, TREE);
        }
        killed = true;
        started.kill();
        started.session().abandon("the VM was killed on request");
        return true;
    }

    @Override
    public EnforcementEvidence evidence() {
        ExitDisposition d;
        GuestEnd e;
        synchronized (this) {
            d = disposition;
            e = end;
        }
        return new EnforcementEvidence(backendId, VmEvidence.records(started, hypervisor, Optional.ofNullable(d),
                Optional.ofNullable(e), deadlineHit, killed));
    }

    @Override
    public Optional<DescriptorInventory> descriptors() {
        return started.fields().containsKey("fds") ? Optional.of(VmBackendPlan.SEALED) : Optional.empty();
    }

    @Override
    public Optional<ProcessAuthority> authority() {
        return VmEvidence.authority(started.fields().getOrDefault("authority", ""));
    }
}
