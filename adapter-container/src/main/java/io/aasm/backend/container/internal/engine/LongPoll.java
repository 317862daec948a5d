package io.aasm.backend.container.internal.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * A request whose answer comes much later, registered before the event it waits for: the engine writes
 * the wait endpoint's response head as soon as the waiter is registered, so once {@link #open} returned,
 * starting the container can no longer race past the waiter (a container removed before its wait was
 * registered would leave no exit status to read).
 */
public final class LongPoll implements AutoCloseable {
    private final SocketChannel ch;
    private final ByteArrayOutputStream early;

    private LongPoll(SocketChannel ch, ByteArrayOutputStream early) {
        this.ch = ch;
        this.early = early;
    }

    public static LongPoll open(Http http, String method, String path) throws IOException {
        SocketChannel ch = http.connect();
        try {
            Http.writeAll(ch, (method + " " + path + " HTTP/1.0\r\nHost: docker\r\nContent-Length: 0\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            ByteBuffer b = ByteBuffer.allocate(4096);
            while (Http.indexOf(got.toByteArray(), new byte[] {'\r', '\n', '\r', '\n'}) < 0) {
                b.clear();
                if (ch.read(b) < 0) {
                    Http.Response r = Http.parse(got.toByteArray());
                    throw new IOException("the engine answered " + path + " with " + r.status() + ": " + r.text().strip());
                }
                got.write(b.array(), 0, b.position());
            }
            return new LongPoll(ch, got);
        } catch (IOException | RuntimeException e) {
            Http.close(ch);
            throw e;
        }
    }

    /** Blocks until the engine completes the response. */
    public Http.Response await() throws IOException {
        try (ch) {
            ByteBuffer b = ByteBuffer.allocate(4096);
            while (ch.read(b) >= 0) {
                early.write(b.array(), 0, b.position());
                b.clear();
            }
            return Http.parse(early.toByteArray());
        }
    }

    @Override
    public void close() {
        Http.close(ch);
    }
}
