package io.aasm.backend.nativ.internal;

import io.aasm.backend.nativ.internal.launcher.LaunchOptions;
import io.aasm.backend.nativ.internal.lower.NativePlan;
import io.aasm.backend.nativ.internal.probe.ProbeRunner;
import io.aasm.backend.nativ.internal.runtime.Launch;
import io.aasm.backend.nativ.internal.runtime.Launches;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import java.io.File;
import java.lang.ProcessBuilder.Redirect;

/**
 * Launches that bypass negotiation, every stated requirement installed, stdio detached: how the probes
 * observe a denial with the same lowering and launcher a real launch uses.
 */
final class DirectRuns implements ProbeRunner {

    /** Lowers a spec's every requirement, or says why it cannot be installed. */
    interface Lower {
        NativePlan apply(ExecutionSpec spec) throws LaunchException;
    }

    private final Lower lower;
    private final Launches launches;

    DirectRuns(Lower lower, Launches launches) {
        this.lower = lower;
        this.launches = launches;
    }

    @Override
    public ExitDisposition run(ExecutionSpec spec) throws LaunchException {
        return started(spec).waitFor();
    }

    @Override
    public AutoCloseable start(ExecutionSpec spec) throws LaunchException {
        Launch launch = started(spec);
        return () -> {
            launch.terminate(false);
            launch.waitFor();
        };
    }

    private Launch started(ExecutionSpec spec) throws LaunchException {
        Launch launch = launches.prepare(lower.apply(spec));
        launches.start(launch, LaunchOptions.inherit().withStdio(Redirect.from(new File("/dev/null")),
                Redirect.DISCARD, Redirect.DISCARD));
        return launch;
    }
}
