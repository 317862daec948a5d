package io.aasm.backend.landlockseccomp.internal.probe;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.LaunchException;

/** Runs one confined launch exactly as a real one (lowering, launcher), bypassing negotiation. */
public interface ProbeRunner {
    ExitDisposition run(ExecutionSpec spec) throws LaunchException;

    /** Starts a launch and leaves it running until the returned handle is closed (its tree is then killed). */
    AutoCloseable start(ExecutionSpec spec) throws LaunchException;
}
