package io.aasm.backend.container.internal.engine;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The container's standard streams over one hijacked connection ({@code POST .../attach}, upgraded to a
 * raw stream), opened before the container starts so no early output is lost. Input is written as is and
 * ended with a half-close, which the engine turns into end of file on the program's stdin (the container
 * is created with OpenStdin and StdinOnce). Output is multiplexed in frames of an 8-byte header
 * {@code [stream, 0, 0, 0, length (big endian)]} unless the container has a terminal, where it is raw.
 * One thread may write while another reads: the channel's read and write sides are independent.
 */
public final class Attachment implements AutoCloseable {
    private static final int MAX_HEAD = 8192;

    /** One piece of output: stream 1 is stdout, 2 is stderr. */
    public record Frame(int stream, byte[] bytes) {
    }

    private final SocketChannel ch;
    private final boolean tty;

    private Attachment(SocketChannel ch, boolean tty) {
        this.ch = ch;
        this.tty = tty;
    }

    public static Attachment open(Http http, String prefix, String id, boolean tty) throws IOException {
        SocketChannel ch = http.connect();
        try {
            String req = "POST " + prefix + "/containers/" + id + "/attach?stream=1&stdin=1&stdout=1&stderr=1 HTTP/1.1\r\n"
                    + "Host: docker\r\nConnection: Upgrade\r\nUpgrade: tcp\r\nContent-Length: 0\r\n\r\n";
            Http.writeAll(ch, req.getBytes(StandardCharsets.US_ASCII));
            String head = readHead(ch);
            String status = head.lines().findFirst().orElse("");
            if (!status.matches("HTTP/1\\.[01] (101|200) .*")) {
                throw new IOException("the engine refused to attach to container " + id + ": " + status);
            }
            return new Attachment(ch, tty);
        } catch (IOException | RuntimeException e) {
            Http.close(ch);
            throw e;
        }
    }

    private static String readHead(SocketChannel ch) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        byte[] head = new byte[MAX_HEAD];
        int n = 0;
        while (n < MAX_HEAD) {
            one.clear();
            if (ch.read(one) < 0) {
                throw new EOFException("the engine closed the attach connection during its response head");
            }
            head[n++] = one.get(0);
            if (n >= 4 && head[n - 4] == '\r' && head[n - 3] == '\n' && head[n - 2] == '\r' && head[n - 1] == '\n') {
                return new String(head, 0, n, StandardCharsets.ISO_8859_1);
            }
        }
        throw new IOException("the engine's attach response head exceeds " + MAX_HEAD + " bytes");
    }

    public void writeStdin(byte[] b, int off, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b, off, len);
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    /** End of file for the program's stdin. */
    public void closeStdin() throws IOException {
        ch.shutdownOutput();
    }

    /** The next piece of output, or empty once the container's output has ended. */
    public Optional<Frame> next() throws IOException {
        if (tty) {
            ByteBuffer b = ByteBuffer.allocate(32768);
            int n = ch.read(b);
            return n < 0 ? Optional.empty() : Optional.of(new Frame(1, Arrays.copyOf(b.array(), n)));
        }
        ByteBuffer header = ByteBuffer.allocate(8);
        if (!fill(header, true)) {
            return Optional.empty();
        }
        int stream = header.get(0);
        int length = header.getInt(4);
        if (length < 0) {
            throw new IOException("bad frame length from the engine: " + length);
        }
        ByteBuffer body = ByteBuffer.allocate(length);
        fill(body, false);
        return Optional.of(new Frame(stream == 2 ? 2 : 1, body.array()));
    }

    /** Reads until {@code b} is full; false when the stream ended before the first byte (allowed only there). */
    private boolean fill(ByteBuffer b, boolean endAllowed) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                if (endAllowed && b.position() == 0) {
                    return false;
                }
                throw new EOFException("the engine's output stream ended inside a frame");
            }
        }
        return true;
    }

    @Override
    public void close() {
        Http.close(ch);
    }
}
