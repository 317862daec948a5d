package io.aasm.ports.backend;

import io.aasm.ports.evidence.EnforcementEvidence;
import io.aasm.ports.evidence.DescriptorInventory;
import io.aasm.ports.evidence.ProcessAuthority;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/** A running confined tree. Thread-safe: await may be called from any thread, repeatedly. */
@ConsumerType
public interface Execution {
    /** Blocks until the program ends and the whole tree is torn down; idempotent. */
    ExitDisposition await() throws InterruptedException;

    /** Best effort; true when the request was delivered. */
    boolean terminate(TerminationRequest request);

    /**
     * Delivers a signal the caller received that is not a request to end (for example SIGWINCH: the
     * caller's terminal changed size) as the backend sees fit. Best effort; true when delivered.
     */
    default boolean signal(int signal) {
        return false;
    }

    /** What the backend can show about the launch (setup records before exit, runtime after). */
    EnforcementEvidence evidence();

    /** The descriptor inventory taken at launch; empty when none was taken. */
    default Optional<DescriptorInventory> descriptors() {
        return Optional.empty();
    }

    /** The privileges measured on the program after its execve; empty when not measured. */
    default Optional<ProcessAuthority> authority() {
        return Optional.empty();
    }
}
