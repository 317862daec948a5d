package io.aasm.ports.kernel;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.TerminationRequest;
import io.aasm.ports.report.IsolationReport;
import org.osgi.annotation.versioning.ProviderType;

/** A running launch. Thread-safe; {@link #await()} may be called from any thread, repeatedly. */
@ProviderType
public interface LaunchSession {
    /** Blocks until the program has ended and its tree is torn down. */
    ExitDisposition await() throws InterruptedException;

    /** Forwards a termination request to the confined tree; true when delivered. */
    boolean terminate(TerminationRequest request);

    /** Forwards a signal that is not a request to end (e.g. SIGWINCH); true when delivered. */
    default boolean signal(int signal) {
        return false;
    }

    /** The post-run report (with evidence); only meaningful after {@link #await()} returned. */
    IsolationReport postRunReport();

    /**
     * Why the launch's audit record could not be written, once {@link #await()} returned; empty when every
     * installed audit log took it (or none is installed).
     */
    default java.util.Optional<String> auditProblem() {
        return java.util.Optional.empty();
    }

    /**
     * The id of this launch's audit record (what {@code aasm audit show} takes), once {@link #await()}
     * returned and every installed audit log took the record; empty when none was written.
     */
    default java.util.Optional<String> auditRecord() {
        return java.util.Optional.empty();
    }
}
