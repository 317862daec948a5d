package io.aasm.backend.landlockseccomp.internal;

import io.aasm.backend.landlockseccomp.internal.launcher.LaunchOptions;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan;
import io.aasm.backend.landlockseccomp.internal.probe.ProbeRunner;
import io.aasm.backend.landlockseccomp.internal.runtime.Launch;
import io.aasm.backend.landlockseccomp.internal.runtime.Launches;
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
        LandlockSeccompPlan apply(ExecutionSpec spec) throws LaunchException;
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
