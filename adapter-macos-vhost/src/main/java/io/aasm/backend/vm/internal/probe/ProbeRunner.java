package io.aasm.backend.vm.internal.probe;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;

/** Runs one launch in a guest exactly as a real one (lowering, template restore, agent), stdio detached. */
public interface ProbeRunner {
    ExitDisposition run(ExecutionSpec spec) throws LaunchException;
}
