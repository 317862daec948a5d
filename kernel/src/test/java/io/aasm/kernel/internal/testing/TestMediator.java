package io.aasm.kernel.internal.testing;

import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.MediationException;
import io.aasm.ports.transport.MediationRequest;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.MediationTally;
import io.aasm.ports.transport.RelayEndpoint;
import io.aasm.ports.transport.TransportMediator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A mediator for kernel tests (test sources only): it records each request and hands out sessions whose
 * decisions the test sets; the real proxy is tested in its own adapter and end to end.
 */
public final class TestMediator implements TransportMediator {
    public final List<MediationRequest> requests = new ArrayList<>();
    public final List<Session> sessions = new ArrayList<>();
    public volatile List<EgressDecision> decisions = List.of();
    public volatile boolean failing;

    @Override
    public synchronized MediationSession open(MediationRequest request) throws MediationException {
        if (failing) {
            throw new MediationException("test mediator cannot listen");
        }
        requests.add(request);
        Session s = new Session(request, decisions);
        sessions.add(s);
        return s;
    }

    public static final class Session implements MediationSession {
        public final MediationRequest request;
        private final List<EgressDecision> decisions;
        public volatile int closed;

        Session(MediationRequest request, List<EgressDecision> decisions) {
            this.request = request;
            this.decisions = decisions;
        }

        @Override
        public String launchId() {
            return request.launchId();
        }

        @Override
        public Optional<RelayEndpoint> relay() {
            return Optional.of(new RelayEndpoint(Path.of("/nonexistent/relay.sock"), new byte[32]));
        }

        @Override
        public Map<String, String> environment() {
            return Map.of("http_proxy", "http://127.0.0.1:" + request.boundaryPort());
        }

        @Override
        public List<EgressDecision> decisions() {
            return decisions;
        }

        @Override
        public MediationTally tally() {
            long denied = decisions.stream().filter(EgressDecision::denied).count();
            return new MediationTally(decisions.size() - denied, denied, 0, 0);
        }

        @Override
        public Optional<Path> decisionLog() {
            return Optional.empty();
        }

        @Override
        public synchronized void close() {
            closed++;
        }
    }
}
