package io.aasm.backend.vm.internal;

import io.aasm.ports.transport.RelayEndpoint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A mediation session's relay endpoint, owned by the test: a unix listener with its own preamble. Each
 * accepted connection is handed to a {@link Handler}; every byte that arrived is kept per connection, so a
 * test can check that the preamble came first and what followed.
 */
final class SessionStandIn implements AutoCloseable {
    /** What the session does with one connection after it has read {@code expect} bytes of it. */
    interface Handler {
        void handle(SocketChannel c, byte[] arrived) throws IOException;
    }

    final byte[] preamble = new byte[32];
    final Path socket;
    private final ServerSocketChannel server;
    private final List<byte[]> arrivals = new ArrayList<>();
    private final Thread acceptor;

    SessionStandIn(Path dir, int expect, Handler handler) throws IOException {
        new SecureRandom().nextBytes(preamble);
        socket = dir.resolve("session.sock");
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        acceptor = new Thread(() -> {
            while (true) {
                try {
                    SocketChannel c = server.accept();
                    Thread t = new Thread(() -> serve(c, expect, handler), "session-stand-in");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "session-stand-in-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    RelayEndpoint endpoint() {
        return new RelayEndpoint(socket, preamble);
    }

    private void serve(SocketChannel c, int expect, Handler handler) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (c) {
            ByteBuffer b = ByteBuffer.allocate(65536);
            while (got.size() < expect) {
                b.clear().limit(Math.min(b.capacity(), expect - got.size()));
                int n = c.read(b);
                if (n < 0) {
                    break;
                }
                got.write(b.array(), 0, n);
            }
            handler.handle(c, got.toByteArray());
        } catch (IOException e) {
            // the connection ended: what arrived is kept
        } finally {
            synchronized (arrivals) {
                arrivals.add(got.toByteArray());
                arrivals.notifyAll();
            }
        }
    }

    /** What arrived on each finished connection, waiting up to {@code millis} for {@code count} of them. */
    List<byte[]> arrivals(int count, long millis) throws InterruptedException {
        long end = System.currentTimeMillis() + millis;
        synchronized (arrivals) {
            while (arrivals.size() < count && System.currentTimeMillis() < end) {
                arrivals.wait(Math.max(1, end - System.currentTimeMillis()));
            }
            return List.copyOf(arrivals);
        }
    }

    /** Whether {@code got} begins with the preamble and continues with {@code rest}. */
    boolean preambleThen(byte[] got, byte[] rest) {
        return got.length == preamble.length + rest.length
                && Arrays.equals(Arrays.copyOf(got, preamble.length), preamble)
                && Arrays.equals(Arrays.copyOfRange(got, preamble.length, got.length), rest);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
