package io.aasm.transport.proxy.internal.session;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.List;

/** Dials the vetted addresses in order, each with a timeout; never a name, so nothing is resolved again here. */
final class Dialer {
    private final int timeoutMillis;

    Dialer(int timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    /** A connected channel to the first address that answers; the last failure when none does. */
    SocketChannel dial(List<InetAddress> addresses, int port, Attempt at) throws IOException {
        IOException last = null;
        for (InetAddress a : addresses) {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.socket().connect(new InetSocketAddress(a, port), timeoutMillis);
                at.resolved(a.getHostAddress());
                return ch;
            } catch (IOException e) {
                ch.close();
                last = new IOException(a.getHostAddress() + ": " + e.getMessage(), e);
            }
        }
        throw last != null ? last : new IOException("no address to dial");
    }
}
