package io.aasm.backend.vm.internal.qemu;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A unix socket QEMU connects to as a client (the control port's chardev, the monitor). Listening before
 * QEMU starts means nothing the guest writes can be lost (vm-backend.md 2.4); the socket file is removed
 * as soon as QEMU is connected, so no one else can connect later.
 */
final class Listener implements AutoCloseable {
    private final Path path;
    private final ServerSocketChannel server;

    Listener(Path path) throws IOException {
        this.path = path;
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(path));
        server.configureBlocking(false);
    }

    Path path() {
        return path;
    }

    /** The one connection, in blocking mode; IOException when none came in time or the process died. */
    SocketChannel accept(long millis, Process qemu) throws IOException {
        try (Selector sel = Selector.open()) {
            server.register(sel, SelectionKey.OP_ACCEPT);
            long deadline = System.nanoTime() + millis * 1_000_000L;
            while (true) {
                // Liveness before the accept: a QEMU that connected and then died between the two left its
                // connection in the backlog, and "exited before connecting" would be the wrong account.
                boolean alive = qemu.isAlive();
                SocketChannel c = server.accept();
                if (c != null) {
                    c.configureBlocking(true);
                    close();
                    return c;
                }
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0 || !alive) {
                    throw new IOException(alive ? "QEMU did not connect to " + path.getFileName() + " within "
                            + millis + " ms" : "QEMU exited (" + qemu.exitValue() + ") before connecting");
                }
                sel.select(Math.min(left, 100));
                sel.selectedKeys().clear();
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // nothing left to do
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // the run folder goes with the launch
        }
    }
}
