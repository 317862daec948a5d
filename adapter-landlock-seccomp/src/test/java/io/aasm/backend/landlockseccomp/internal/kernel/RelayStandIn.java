package io.aasm.backend.landlockseccomp.internal.kernel;

import io.aasm.testsupport.relay.HandOffWire;
import io.aasm.testsupport.relay.RecordingSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The far end of the relay for the backend's own tests ({@link RecordingSession}): each connection must begin
 * with the hand-off capability and the session's preamble. It never hands a socket over, so the relay stays in
 * its dialog mode and forwards this end's answers itself.
 */
final class RelayStandIn extends RecordingSession {
    /** What the launcher's relay writes before the preamble: the hand-off capability, version 1 (PROTOCOL.md). */
    static final byte[] CAPABILITY = HandOffWire.CAPABILITY;

    RelayStandIn(Path dir, int boundaryPort) throws IOException {
        this(dir, boundaryPort, null);
    }

    /** {@code bulk}: takes over each connection once its first bytes were checked against the preamble. */
    RelayStandIn(Path dir, int boundaryPort, Bulk bulk) throws IOException {
        super(dir.resolve("relay.sock"), CAPABILITY,
                Map.of("http_proxy", "http://127.0.0.1:" + boundaryPort, "NO_PROXY", "localhost"), null, bulk);
    }
}
