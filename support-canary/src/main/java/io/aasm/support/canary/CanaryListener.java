package io.aasm.support.canary;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * The supervisor's listener on the host's loopback that an egress canary tries to reach from inside the
 * boundary: on a port no grant covers, checked from outside after the attempt. Its port is read once while it
 * is open, because the evidence naming it is written after the launch has closed it.
 */
public final class CanaryListener implements AutoCloseable {
    private static final int TRIES = 3;

    private final ServerSocketChannel channel;
    private final int port;

    private CanaryListener(ServerSocketChannel channel, int port) {
        this.channel = channel;
        this.port = port;
    }

    /** A listener on 127.0.0.1 on a port {@code granted} does not cover (three tries), or none. */
    public static Optional<CanaryListener> open(IntPredicate granted) throws IOException {
        for (int i = 0; i < TRIES; i++) {
            ServerSocketChannel s = ServerSocketChannel.open();
            s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 4);
            s.configureBlocking(false);
            int port = ((InetSocketAddress) s.getLocalAddress()).getPort();
            if (!granted.test(port)) {
                return Optional.of(new CanaryListener(s, port));
            }
            s.close();
        }
        return Optional.empty();
    }

    public int port() {
        return port;
    }

    /** What the canary achieved if a connection arrived: the escape named, or why it could not be checked. */
    public Optional<String> reached() {
        try (SocketChannel reached = channel.accept()) {
            return reached == null ? Optional.empty()
                    : Optional.of("network_egress: the canary reached the supervisor's listener on 127.0.0.1:" + port);
        } catch (IOException e) {
            return Optional.of("network_egress: the canary listener could not be checked: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing listens any more
        }
    }
}
