package io.aasm.cli.internal.resident;

import com.sun.jna.Native;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/** Writes straight to a descriptor received from a client (its stdout or stderr), unbuffered. */
final class FdOutputStream extends OutputStream {
    private final int fd;

    FdOutputStream(int fd) {
        this.fd = fd;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        byte[] chunk = off == 0 && len == b.length ? b : Arrays.copyOfRange(b, off, off + len);
        int done = 0;
        while (done < chunk.length) {
            byte[] rest = done == 0 ? chunk : Arrays.copyOfRange(chunk, done, chunk.length);
            long n = Libc.C.write(fd, rest, rest.length);
            if (n < 0 && Native.getLastError() == Libc.EINTR) {
                continue;
            }
            if (n <= 0) {
                throw new IOException("write to client descriptor failed, errno " + Native.getLastError());
            }
            done += (int) n;
        }
    }
}
