package io.aasm.backend.landlockseccomp.internal.kernel;

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
 * The far end of the relay for the backend's own tests: a real unix socket that records, per connection,
 * whether it began with the hand-off capability and the session's preamble, and what followed. It never hands a
 * socket over, so the relay stays in its dialog mode and forwards this end's answers itself. The proxy itself is tested in its own
 * adapter; here only the relay's path, credential and byte stream are under test.
 */
final class RelayStandIn implements MediationSession {
    record Received(boolean preambleMatched, String bytes) {
    }

    /** What the launcher's relay writes before the preamble: the hand-off capability, version 1 (PROTOCOL.md). */
    static final byte[] CAPABILITY = {(byte) 0xFF, 'A', 'H', 1};

    private final byte[] preamble = new byte[32];
    private final Path socket;
    private final ServerSocketChannel server;
    private final List<Received> received = new ArrayList<>();
    private final int boundaryPort;
    private final Thread thread;
    private final Bulk bulk;

    /** Takes over a connection once its first bytes were checked against the preamble. */
    interface Bulk {
        void exchange(boolean preambleMatched, SocketChannel c) throws Exception;
    }

    RelayStandIn(Path dir, int boundaryPort) throws IOException {
        this(dir, boundaryPort, null);
    }

    RelayStandIn(Path dir, int boundaryPort, Bulk bulk) throws IOException {
        this.bulk = bulk;
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
                if (bulk != null) {
                    ByteBuffer first = ByteBuffer.allocate(CAPABILITY.length + preamble.length);
                    while (first.hasRemaining() && c.read(first) >= 0) {
                        // the capability and the preamble, or as much as came before the end
                    }
                    bulk.exchange(Arrays.equals(first.array(), announced()), c);
                    continue;
                }
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                ByteBuffer b = ByteBuffer.allocate(4096);
                while (c.read(b) >= 0) {
                    all.write(b.array(), 0, b.position());
                    b.clear();
                }
                byte[] got = all.toByteArray();
                byte[] first = announced();
                boolean ok = got.length >= first.length && Arrays.equals(Arrays.copyOf(got, first.length), first);
                String rest = new String(got, Math.min(got.length, ok ? first.length : 0),
                        got.length - Math.min(got.length, ok ? first.length : 0), StandardCharsets.ISO_8859_1);
                synchronized (received) {
                    received.add(new Received(ok, rest));
                    received.notifyAll();
                }
            } catch (IOException e) {
                return;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The capability, then the session's preamble: the relay's first bytes on every connection. */
    private byte[] announced() {
        byte[] b = Arrays.copyOf(CAPABILITY, CAPABILITY.length + preamble.length);
        System.arraycopy(preamble, 0, b, CAPABILITY.length, preamble.length);
        return b;
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
        return Map.of("http_proxy", "http://127.0.0.1:" + boundaryPort, "NO_PROXY", "localhost");
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
