package io.aasm.backend.landlockseccomp.internal.runtime;

import io.aasm.backend.landlockseccomp.internal.launcher.LaunchOptions;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import java.util.concurrent.atomic.AtomicBoolean;

/** A launch whose cgroup and files exist and whose message is built; spawned at most once. */
public final class LandlockSeccompPreparedLaunch implements PreparedLaunch {
    private final Launches launches;
    private final Launch launch;
    private final LaunchOptions options;
    private final AtomicBoolean used = new AtomicBoolean();

    public LandlockSeccompPreparedLaunch(Launches launches, Launch launch, LaunchOptions options) {
        this.launches = launches;
        this.launch = launch;
        this.options = options;
    }

    @Override
    public Execution spawn() throws LaunchException {
        if (!used.compareAndSet(false, true)) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "this preparation was already spawned or closed");
        }
        launches.start(launch, options); // a failed start has released the launch's resources
        return new LandlockSeccompExecution(launch);
    }

    @Override
    public void close() {
        if (used.compareAndSet(false, true)) {
            launch.release();
        }
    }
}
