package io.aasm.backend.container.internal;

import io.aasm.testsupport.relay.HandOffWire;
import io.aasm.testsupport.relay.RecordingSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The far end of the relay for the container backend's own tests ({@link RecordingSession}): each connection
 * must begin with the relay's hand-off capability and then the session's preamble (the container's relay
 * announces the capability, as aasm-native's does; this stand-in never hands a tunnel over).
 */
final class RelayStandIn extends RecordingSession {

    RelayStandIn(Path dir, int boundaryPort) throws IOException {
        this(dir, boundaryPort, null);
    }

    /** {@code answer}: written back once the preamble and the first bytes after it arrived, then closed. */
    RelayStandIn(Path dir, int boundaryPort, String answer) throws IOException {
        super(dir.resolve("relay.sock"), HandOffWire.CAPABILITY, Map.of("http_proxy", "http://127.0.0.1:" + boundaryPort,
                "HTTPS_PROXY", "http://127.0.0.1:" + boundaryPort, "NO_PROXY", "localhost"), answer, null);
    }
}
