package io.aasm.backend.container.internal.runtime;

import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.evidence.EnforcementEvidence;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A started container; everything here asks its {@link Launch}. */
public final class ContainerExecution implements Execution {
    public static final String BACKEND_ID = "aasm-container";
    private static final int SIGWINCH = 28;
    private static final Set<Integer> RELAYED = Set.of(1, 2, 3, 15);

    private final Launch launch;
    private final List<String> general;
    private final String image;
    private final String user;

    public ContainerExecution(Launch launch, List<String> general, String image, String user) {
        this.launch = launch;
        this.general = List.copyOf(general);
        this.image = image;
        this.user = user;
    }

    @Override
    public ExitDisposition await() throws InterruptedException {
        return launch.await();
    }

    @Override
    public boolean terminate(TerminationRequest request) {
        return launch.terminate(request == TerminationRequest.GRACEFUL);
    }

    /** SIGHUP, SIGINT, SIGQUIT and SIGTERM reach the program as sent (the set aasm-native relays); SIGWINCH resizes. */
    @Override
    public boolean signal(int signal) {
        if (signal == SIGWINCH) {
            return launch.resize();
        }
        return RELAYED.contains(signal) && launch.signal(signal);
    }

    @Override
    public EnforcementEvidence evidence() {
        ContainerPlan plan = launch.plan();
        return new EnforcementEvidence(BACKEND_ID, RunEvidence.records(plan, general, Optional.of(launch), image, user));
    }
}
