package io.aasm.ports.transport;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * The mediation of one launch, open from {@link TransportMediator#open} until {@link #close}. Thread-safe.
 */
@ConsumerType
public interface MediationSession extends AutoCloseable {
    String launchId();

    /** Where a relaying backend delivers connections ({@link MediationAccess#RELAY} sessions only). */
    Optional<RelayEndpoint> relay();

    /**
     * The variables the program needs to use this session (the usual proxy variables, upper- and lower-case,
     * and {@code NO_PROXY}); added to the program's environment by whoever starts it. For a relayed session
     * they name {@code 127.0.0.1:boundaryPort} and carry no secret.
     */
    Map<String, String> environment();

    /** The records of the connection attempts that are over, oldest first (the first {@link #KEPT} of them). */
    List<EgressDecision> decisions();

    /** Totals over every attempt that is over, including those beyond {@link #KEPT}. */
    MediationTally tally();

    /** Where the session appends its records as JSON lines, outside every boundary's write reach. */
    Optional<Path> decisionLog();

    /** At most this many records are kept in memory per session; the log has them all. */
    int KEPT = 10_000;

    /**
     * Stops listening, ends every open connection (recording it), and releases the listener. Idempotent;
     * {@link #decisions()} stays readable afterwards.
     */
    @Override
    void close();
}
