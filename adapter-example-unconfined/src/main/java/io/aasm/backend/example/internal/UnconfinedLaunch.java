package io.aasm.backend.example.internal;

import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.backend.PreparedLaunch;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** Nothing to prepare but the command line; spawned at most once. */
final class UnconfinedLaunch implements PreparedLaunch {
    private final ExecutionSpec spec;
    private final AtomicBoolean used = new AtomicBoolean();

    UnconfinedLaunch(ExecutionSpec spec) {
        this.spec = spec;
    }

    @Override
    public Execution spawn() throws LaunchException {
        if (!used.compareAndSet(false, true)) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "this preparation was already spawned or closed");
        }
        List<String> command = new ArrayList<>();
        command.add(spec.program());
        command.addAll(spec.args());
        ProcessBuilder pb = new ProcessBuilder(command).directory(new File(spec.workingDirectory())).inheritIO();
        pb.environment().clear();
        pb.environment().putAll(spec.environment());
        try {
            return new UnconfinedExecution(pb.start());
        } catch (IOException e) {
            throw new LaunchException(LaunchFailureKind.BACKEND_ERROR, "could not start " + spec.program() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        used.set(true);
    }
}
