package io.aasm.testsupport.relay;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The far end of the relay for a backend's own tests: a real unix socket that records, per connection, whether
 * it began with what the relay must write first (the hand-off capability where the relay announces one, then the
 * session's preamble) and what followed. The proxy itself is tested in its own adapter; here only the relay's
 * path, credential and byte stream are under test.
 */
public class RecordingSession extends StandInSession {
    /** One finished connection: whether its first bytes were the expected ones, and the rest as text. */
    public record Received(boolean preambleMatched, String bytes) {
    }

    /** Takes over a connection once its first bytes were checked against the expected ones. */
    public interface Bulk {
        void exchange(boolean preambleMatched, SocketChannel c) throws Exception;
    }

    private final byte[] first;
    private final ServerSocketChannel server;
    private final List<Received> received = new ArrayList<>();
    private final String answer;
    private final Bulk bulk;

    /**
     * @param capability what the relay writes before the preamble (empty for a relay that announces nothing)
     * @param answer     written back once the first bytes and more arrived, then the connection is closed; or null
     * @param bulk       takes over each connection after its first bytes instead of recording it; or null
     */
    protected RecordingSession(Path socket, byte[] capability, Map<String, String> environment, String answer,
                               Bulk bulk) throws IOException {
        super("stand-in", socket, randomPreamble(), environment);
        byte[] preamble = preamble();
        first = Arrays.copyOf(capability, capability.length + preamble.length);
        System.arraycopy(preamble, 0, first, capability.length, preamble.length);
        this.answer = answer;
        this.bulk = bulk;
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread thread = new Thread(this::serve, "relay-stand-in");
        thread.setDaemon(true);
        thread.start();
    }

    private void serve() {
        while (true) {
            try (SocketChannel c = server.accept()) {
                if (bulk != null) {
                    ByteBuffer head = ByteBuffer.allocate(first.length);
                    while (head.hasRemaining() && c.read(head) >= 0) {
                        // the first bytes, or as much as came before the end
                    }
                    bulk.exchange(Arrays.equals(head.array(), first), c);
                    continue;
                }
                record(readAll(c));
            } catch (IOException e) {
                return;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Until the relay's end, or (with an answer) until more than the first bytes came and were answered. */
    private byte[] readAll(SocketChannel c) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(4096);
        while (c.read(b) >= 0) {
            all.write(b.array(), 0, b.position());
            b.clear();
            if (answer != null && all.size() > first.length) {
                c.write(ByteBuffer.wrap(answer.getBytes(StandardCharsets.ISO_8859_1)));
                break;
            }
        }
        return all.toByteArray();
    }

    private void record(byte[] got) {
        boolean ok = got.length >= first.length && Arrays.equals(Arrays.copyOf(got, first.length), first);
        int from = Math.min(got.length, ok ? first.length : 0);
        synchronized (received) {
            received.add(new Received(ok, new String(got, from, got.length - from, StandardCharsets.ISO_8859_1)));
            received.notifyAll();
        }
    }

    /** The connections finished so far, once there are {@code atLeast} of them or 5 s passed. */
    public List<Received> received(int atLeast) throws InterruptedException {
        long end = System.currentTimeMillis() + 5000;
        synchronized (received) {
            while (received.size() < atLeast && System.currentTimeMillis() < end) {
                received.wait(100);
            }
            return List.copyOf(received);
        }
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
