package io.aasm.backend.vm.internal.qemu;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Streams over one blocking socket that a reader thread and a writer thread use at once. The JDK's
 * {@code Channels.newInputStream/newOutputStream} take the channel's blocking lock for every call, so a read
 * waiting for the guest's output would hold off the stdin the guest is waiting for (a deadlock as soon as a
 * program reads more stdin before it writes); {@link SocketChannel}'s own read and write lock separately.
 */
final class DuplexStreams {
    private DuplexStreams() {
    }

    static InputStream input(SocketChannel c) {
        return new BufferedInputStream(new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) {
                    return 0;
                }
                int n;
                do {
                    n = c.read(ByteBuffer.wrap(b, off, len));
                } while (n == 0);
                return n;
            }
        }, 1 << 17);
    }

    static OutputStream output(SocketChannel c) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                while (buf.hasRemaining()) {
                    c.write(buf);
                }
            }
        };
    }
}
