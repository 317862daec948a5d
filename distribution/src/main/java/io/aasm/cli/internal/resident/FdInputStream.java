package io.aasm.cli.internal.resident;

import com.sun.jna.Native;
import java.io.IOException;
import java.io.InputStream;

/** Reads a descriptor received from a client (its stdin); only a command that reads stdin itself uses it. */
final class FdInputStream extends InputStream {
    private final int fd;

    FdInputStream(int fd) {
        this.fd = fd;
    }

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
        byte[] buf = new byte[len];
        for (;;) {
            long n = Libc.C.read(fd, buf, len);
            if (n < 0 && Native.getLastError() == Libc.EINTR) {
                continue;
            }
            if (n < 0) {
                throw new IOException("read from client descriptor failed, errno " + Native.getLastError());
            }
            if (n == 0) {
                return -1;
            }
            System.arraycopy(buf, 0, b, off, (int) n);
            return (int) n;
        }
    }
}
