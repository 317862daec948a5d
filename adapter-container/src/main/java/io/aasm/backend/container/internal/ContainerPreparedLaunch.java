package io.aasm.backend.container.internal;

import io.aasm.backend.container.internal.runtime.ContainerExecution;
import io.aasm.backend.container.internal.runtime.Launch;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** A created container (with its guard) that has not started; spawned at most once, else removed on close. */
final class ContainerPreparedLaunch implements PreparedLaunch {
    private final Launch launch;
    private final List<String> general;
    private final String image;
    private final String user;
    private final AtomicBoolean used = new AtomicBoolean();

    ContainerPreparedLaunch(Launch launch, List<String> general, String image, String user) {
        this.launch = launch;
        this.general = List.copyOf(general);
        this.image = image;
        this.user = user;
    }

    @Override
    public Execution spawn() throws LaunchException {
        if (!used.compareAndSet(false, true)) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "this preparation was already spawned or closed");
        }
        launch.start(); // a failed start has removed the container
        return new ContainerExecution(launch, general, image, user);
    }

    @Override
    public void close() {
        if (used.compareAndSet(false, true)) {
            launch.release();
        }
    }
}
