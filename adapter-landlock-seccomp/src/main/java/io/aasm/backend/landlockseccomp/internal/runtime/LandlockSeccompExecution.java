package io.aasm.backend.landlockseccomp.internal.runtime;

import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.evidence.ProcessAuthority;
import java.util.Optional;

/** A started launch: its launcher process supervises the tree; everything here asks the {@link Launch}. */
public final class LandlockSeccompExecution implements Execution {
    public static final String BACKEND_ID = "aasm-native";
    private static final int SIGWINCH = 28;
    /** What the launcher relays to the program as itself (its SIGNALS record) or uses itself (SIGWINCH). */
    private static final java.util.Set<Integer> RELAYED = java.util.Set.of(1, 2, 3, 15, SIGWINCH);

    private final Launch launch;

    LandlockSeccompExecution(Launch launch) {
        this.launch = launch;
    }

    @Override
    public ExitDisposition await() {
        return launch.waitFor();
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        if (launch.disposition().isPresent()) {
            return false;
        }
        launch.terminate(request == TerminationRequest.GRACEFUL);
        return true;
    }

    /**
     * SIGHUP, SIGINT, SIGQUIT and SIGTERM go to the launcher, which relays each to the program as itself;
     * SIGWINCH makes it copy the caller's window size to the program's terminal.
     */
    @Override
    public boolean signal(int signal) {
        if (launch.disposition().isPresent() || !RELAYED.contains(signal)) {
            return false;
        }
        return launch.process().map(p -> p.signal(signal)).orElse(false);
    }

    @Override
    public EnforcementEvidence evidence() {
        return new EnforcementEvidence(BACKEND_ID, LaunchEvidence.records(launch));
    }

    /** The inventory the launcher's program child reported just before exec. */
    @Override
    public Optional<DescriptorInventory> descriptors() {
        return launch.process().flatMap(p -> p.descriptors());
    }

    /** What the program held right after its execve, read by the launcher's init from its /proc status. */
    @Override
    public Optional<ProcessAuthority> authority() {
        return launch.process().flatMap(p -> p.authority());
    }
}
