package io.aasm.support.relay;

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
import java.util.Arrays;

/**
 * Stands in for the mediation session in a relay probe: the probe hands {@link #endpoint()} to one mediated
 * launch, whose relay must deliver what the probe's grandchild sent to the proxy port, preamble first (after the
 * relay's hand-off capability, where it announces one). It
 * accepts one connection and keeps at most 4 KiB of it, so a relay that streams without end cannot hold the
 * probe. What arrived is the control of the probe's pair (the granted way works); the denial is the probe's own.
 */
public final class SessionStandIn implements AutoCloseable {
    static final int MAX_BYTES = 4096;
    /** How long {@link #carried} still waits once it stopped listening, for a connection already accepted. */
    static final long DRAIN_MILLIS = 1000;
    /**
     * What a relay that can take handed tunnels writes before the preamble (hand-off capability, version 1: the
     * native adapter's PROTOCOL.md). The stand-in hands nothing over; it only accepts either beginning.
     */
    static final byte[] HANDOFF_CAPABILITY = {(byte) 0xFF, 'A', 'H', 1};

    private final byte[] preamble = new byte[32];
    private final Path socket;
    private final ServerSocketChannel server;
    private final ByteArrayOutputStream got = new ByteArrayOutputStream();
    private final Thread arrival;

    private SessionStandIn(Path socket, String threadName) throws IOException {
        new SecureRandom().nextBytes(preamble);
        this.socket = socket;
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            server.close();
            throw e;
        }
        arrival = new Thread(this::accept, threadName);
        arrival.setDaemon(true);
        arrival.start();
    }

    /** Listens on {@code socket} (which must not exist) and starts accepting the relay's connection. */
    public static SessionStandIn open(Path socket, String threadName) throws IOException {
        return new SessionStandIn(socket, threadName);
    }

    /** What the launch is given as its mediation session: this listener and its fresh preamble. */
    public RelayEndpoint endpoint() {
        return new RelayEndpoint(socket, preamble);
    }

    private void accept() {
        try (SocketChannel c = server.accept()) {
            ByteBuffer b = ByteBuffer.allocate(MAX_BYTES);
            while (b.hasRemaining() && c.read(b) > 0) {
                // until the relay's side ends
            }
            synchronized (got) {
                got.write(b.array(), 0, b.position());
            }
        } catch (IOException e) {
            // closed: nothing (more) arrived
        }
    }

    /**
     * Whether the relay delivered this session's preamble and then bytes starting with {@code marker}. Called
     * once the launch ended, when what was sent has been relayed or never will be: waits up to {@code waitMillis}
     * for the connection to end, then stops listening (a connection that never came ends the accept).
     */
    public boolean carried(String marker, long waitMillis) throws InterruptedException {
        arrival.join(waitMillis);
        close();
        arrival.join(DRAIN_MILLIS);
        byte[] all;
        synchronized (got) {
            all = got.toByteArray();
        }
        byte[] want = marker.getBytes(StandardCharsets.ISO_8859_1);
        return begins(all, 0, want) || begins(all, HANDOFF_CAPABILITY.length, want)
                && Arrays.equals(Arrays.copyOf(all, HANDOFF_CAPABILITY.length), HANDOFF_CAPABILITY);
    }

    /** Whether {@code all} holds, from {@code at}, this session's preamble and then {@code want}. */
    private boolean begins(byte[] all, int at, byte[] want) {
        int end = at + preamble.length;
        return all.length >= end + want.length && Arrays.equals(Arrays.copyOfRange(all, at, end), preamble)
                && Arrays.equals(Arrays.copyOfRange(all, end, end + want.length), want);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
