package io.aasm.ports.transport;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * The transport mediation service (one installed at a time; the kernel takes the first it sees). Registering
 * it costs nothing: implementations start listening only in {@link #open}, so a launch that is not mediated
 * never pays for it. Thread-safe; sessions are independent of each other.
 */
@ConsumerType
public interface TransportMediator {
    /**
     * Starts the mediation of one launch: its own listener, its own credentials, its own decision log. The
     * session admits a connection only to a destination {@code request.grants()} grants, resolving names itself
     * ({@code request.pinnedHosts()} first) and dialling the address it resolved.
     *
     * @throws MediationException when the session cannot listen (nothing is left open then)
     */
    MediationSession open(MediationRequest request) throws MediationException;
}
