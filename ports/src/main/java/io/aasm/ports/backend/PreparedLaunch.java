package io.aasm.ports.backend;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A launch a backend has fully prepared: every resource opened, every check passed, nothing run. It is
 * spawned at most once; closing it without spawning releases what {@link IsolationBackend#prepare} made.
 */
@ConsumerType
public interface PreparedLaunch extends AutoCloseable {
    /** Starts the program inside the boundary. A failure before the program started is a LaunchException. */
    Execution spawn() throws LaunchException;

    /** Releases the preparation if it was never spawned; does nothing after {@link #spawn}. */
    @Override
    void close();
}
