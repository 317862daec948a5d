package io.aasm.transport.proxy.internal.wire;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * Buffered reads from a blocking channel for the protocol dialogs (preamble, request head, SOCKS messages).
 * Reads go through {@code read(ByteBuffer)} only: stream views of one channel used from two threads deadlock
 * on its blocking lock. What was read past the dialog is handed on with {@link #leftover()}.
 */
public final class ChannelReader {
    private final ReadableByteChannel ch;
    private final ByteBuffer buf;

    public ChannelReader(ReadableByteChannel ch, int capacity) {
        this.ch = ch;
        this.buf = ByteBuffer.allocate(capacity);
        buf.flip();
    }

    /** The next byte (0..255), or -1 at end of stream. */
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return buf.get() & 0xff;
    }

    /** The next byte without consuming it, or -1 at end of stream. */
    public int peek() throws IOException {
        if (!fill()) {
            return -1;
        }
        return buf.get(buf.position()) & 0xff;
    }

    public int readByte() throws IOException {
        int b = read();
        if (b < 0) {
            throw new EOFException("the client closed the connection mid-request");
        }
        return b;
    }

    public byte[] readFully(int n) throws IOException {
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[i] = (byte) readByte();
        }
        return out;
    }

    /** A line without its CRLF (or LF), as ISO-8859-1; {@link HeadTooLarge} past {@code max} bytes. */
    public String readLine(int max) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int b = readByte();
            if (b == '\n') {
                int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            if (sb.length() >= max) {
                throw new HeadTooLarge("a request line or header is longer than " + max + " bytes");
            }
            sb.append((char) b);
        }
    }

    /** Bytes already read from the channel but not consumed by the dialog (to forward as they are). */
    public ByteBuffer leftover() {
        ByteBuffer out = ByteBuffer.allocate(buf.remaining());
        out.put(buf.duplicate()).flip();
        buf.position(buf.limit());
        return out;
    }

    private boolean fill() throws IOException {
        if (buf.hasRemaining()) {
            return true;
        }
        buf.clear();
        int n;
        do {
            n = ch.read(buf);
        } while (n == 0);
        buf.flip();
        return n > 0;
    }

    /** The request head exceeded its bound: answered with 431 and recorded. */
    public static final class HeadTooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        public HeadTooLarge(String message) {
            super(message);
        }
    }

    static String ascii(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
