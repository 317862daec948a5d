package io.aasm.backend.container.internal.probe;

import io.aasm.backend.container.internal.lower.ContainerPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;
import java.util.function.UnaryOperator;

/** Runs probe launches in containers: every stated requirement installed, negotiation bypassed, stdio detached. */
public interface ProbeRunner {
    /** {@code tweak} changes the lowered plan before the container is created (a control's one difference). */
    ExitDisposition run(ExecutionSpec spec, UnaryOperator<ContainerPlan> tweak) throws LaunchException;

    default ExitDisposition run(ExecutionSpec spec) throws LaunchException {
        return run(spec, UnaryOperator.identity());
    }
}
