package io.aasm.transport.proxy.internal.session;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * Copies bytes both ways between the client and the destination until both directions ended, propagating
 * each half-close (a request-then-read client would hang otherwise), and counts them. The client-to-destination
 * half runs on the caller's thread, the other on one more pool thread.
 */
final class Tunnel {
    static final int BUFFER = 64 * 1024;

    private Tunnel() {
    }

    static void run(SocketChannel client, SocketChannel upstream, ByteBuffer leftover, Attempt at, Executor pool) {
        CompletableFuture<Long> down = CompletableFuture.supplyAsync(() -> pump(upstream, client, ByteBuffer.allocate(0)),
                pool);
        long up = pump(client, upstream, leftover);
        long d;
        try {
            d = down.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            d = 0;
        } catch (ExecutionException e) {
            d = 0;
        }
        at.bytesUp += up < 0 ? -1 - up : up;
        at.bytesDown += d < 0 ? -1 - d : d;
        if (up < 0 || d < 0) {
            at.reason("the connection ended abnormally (reset or the session closed)");
        }
    }

    /** Bytes moved; negative (minus one minus the count) when the direction ended with an error. */
    private static long pump(SocketChannel from, SocketChannel to, ByteBuffer first) {
        long moved = 0;
        try {
            while (first.hasRemaining()) {
                moved += to.write(first);
            }
            ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER);
            while (true) {
                buf.clear();
                int n = from.read(buf);
                if (n < 0) {
                    break;
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    to.write(buf);
                }
                moved += n;
            }
            to.shutdownOutput();
            return moved;
        } catch (IOException e) {
            // one side failed: end both, so the other direction's read returns too
            close(from);
            close(to);
            return -1 - moved;
        }
    }

    static void close(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // already gone
        }
    }
}
