package io.aasm.transport.proxy.internal.session;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** A raw client of a session: what a relay (preamble first) or a program (loopback session) sends. */
final class Client implements AutoCloseable {
    final SocketChannel ch;

    private Client(SocketChannel ch) {
        this.ch = ch;
    }

    static Client unix(Path socket, byte[] preamble) throws IOException {
        SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
        c.connect(UnixDomainSocketAddress.of(socket));
        Client client = new Client(c);
        client.send(preamble);
        return client;
    }

    static Client tcp(int port) throws IOException {
        return new Client(SocketChannel.open(new InetSocketAddress("127.0.0.1", port)));
    }

    Client send(byte[] b) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b);
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
        return this;
    }

    Client send(String s) throws IOException {
        return send(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Reads exactly n bytes (or what arrives before end of stream). */
    byte[] read(int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining() && ch.read(b) >= 0) {
            // keep reading
        }
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    /** Half-closes, then reads until the other side closes. */
    String finish() throws IOException {
        ch.shutdownOutput();
        return readAll();
    }

    String readAll() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(8192);
        while (ch.read(b) >= 0) {
            out.write(b.array(), 0, b.position());
            b.clear();
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads an HTTP response head (up to the blank line). */
    String head() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (!out.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            one.clear();
            if (ch.read(one) < 0) {
                break;
            }
            out.write(one.array()[0]);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
