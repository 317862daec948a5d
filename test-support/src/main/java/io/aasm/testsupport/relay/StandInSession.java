package io.aasm.testsupport.relay;

import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.MediationTally;
import io.aasm.ports.transport.RelayEndpoint;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A mediation session played by a test: a relay endpoint (a unix socket the test listens on, and its preamble)
 * and the environment the program is given. It decides nothing, so it records no decision and counts nothing:
 * what the test asserts is what arrived at its socket.
 */
public abstract class StandInSession implements MediationSession {
    private final String launchId;
    private final Path socket;
    private final byte[] preamble;
    private final Map<String, String> environment;

    protected StandInSession(String launchId, Path socket, byte[] preamble, Map<String, String> environment) {
        this.launchId = launchId;
        this.socket = socket;
        this.preamble = preamble.clone();
        this.environment = Map.copyOf(environment);
    }

    /** A fresh random preamble of the length the relays write (32 bytes). */
    public static byte[] randomPreamble() {
        byte[] p = new byte[32];
        new SecureRandom().nextBytes(p);
        return p;
    }

    /** The socket the relay connects to. */
    protected final Path socket() {
        return socket;
    }

    /** A copy of this session's preamble. */
    protected final byte[] preamble() {
        return preamble.clone();
    }

    @Override
    public String launchId() {
        return launchId;
    }

    @Override
    public Optional<RelayEndpoint> relay() {
        return Optional.of(new RelayEndpoint(socket, preamble));
    }

    @Override
    public Map<String, String> environment() {
        return environment;
    }

    @Override
    public List<EgressDecision> decisions() {
        return List.of();
    }

    @Override
    public MediationTally tally() {
        return new MediationTally(0, 0, 0, 0);
    }

    @Override
    public Optional<Path> decisionLog() {
        return Optional.empty();
    }
}
