package io.aasm.backend.container.internal;

import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.MediationTally;
import io.aasm.ports.transport.RelayEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The far end of the relay for the container backend's own tests: a real unix socket that records, per connection,
 * whether it began with the session's preamble and what followed. The proxy itself is tested in its own
 * adapter; here only the relay's path, credential and byte stream are under test.
 */
final class RelayStandIn implements MediationSession {
    record Received(boolean preambleMatched, String bytes) {
    }

    private final byte[] preamble = new byte[32];
    private final Path socket;
    private final ServerSocketChannel server;
    private final List<Received> received = new ArrayList<>();
    private final int boundaryPort;
    private final Thread thread;
    private final String answer;

    RelayStandIn(Path dir, int boundaryPort) throws IOException {
        this(dir, boundaryPort, null);
    }

    /** {@code answer}: written back once the preamble and the first bytes after it arrived, then closed. */
    RelayStandIn(Path dir, int boundaryPort, String answer) throws IOException {
        this.answer = answer;
        new SecureRandom().nextBytes(preamble);
        this.socket = dir.resolve("relay.sock");
        this.boundaryPort = boundaryPort;
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        thread = new Thread(this::serve, "relay-stand-in");
        thread.setDaemon(true);
        thread.start();
    }

    private void serve() {
        while (true) {
            try (SocketChannel c = server.accept()) {
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                ByteBuffer b = ByteBuffer.allocate(4096);
                while (c.read(b) >= 0) {
                    all.write(b.array(), 0, b.position());
                    b.clear();
                    if (answer != null && all.size() > preamble.length) {
                        c.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.ISO_8859_1)));
                        break;
                    }
                }
                byte[] got = all.toByteArray();
                boolean ok = got.length >= preamble.length && Arrays.equals(Arrays.copyOf(got, preamble.length), preamble);
                String rest = new String(got, Math.min(got.length, ok ? preamble.length : 0),
                        got.length - Math.min(got.length, ok ? preamble.length : 0), StandardCharsets.ISO_8859_1);
                synchronized (received) {
                    received.add(new Received(ok, rest));
                    received.notifyAll();
                }
            } catch (IOException e) {
                return;
            }
        }
    }

    List<Received> received(int atLeast) throws InterruptedException {
        long end = System.currentTimeMillis() + 5000;
        synchronized (received) {
            while (received.size() < atLeast && System.currentTimeMillis() < end) {
                received.wait(100);
            }
            return List.copyOf(received);
        }
    }

    @Override
    public String launchId() {
        return "stand-in";
    }

    @Override
    public Optional<RelayEndpoint> relay() {
        return Optional.of(new RelayEndpoint(socket, preamble));
    }

    @Override
    public Map<String, String> environment() {
        return Map.of("http_proxy", "http://127.0.0.1:" + boundaryPort, "HTTPS_PROXY", "http://127.0.0.1:" + boundaryPort,
                "NO_PROXY", "localhost");
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

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // test teardown
        }
    }
}
