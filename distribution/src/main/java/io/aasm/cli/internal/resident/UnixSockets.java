package io.aasm.cli.internal.resident;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Raw Unix stream sockets over {@link Libc}: listen, accept, peer uid, descriptor receipt, raw I/O. */
final class UnixSockets {
    private static final int SUN_PATH = 108;

    private UnixSockets() {
    }

    /** A listening socket at {@code path}, mode 0600 before it listens (so nobody connects earlier). */
    static int listen(String path) throws IOException {
        byte[] p = path.getBytes(StandardCharsets.UTF_8);
        if (p.length >= SUN_PATH) {
            throw new IOException("socket path too long for a Unix socket (" + p.length + " bytes): " + path);
        }
        int fd = Libc.C.socket(Libc.AF_UNIX, Libc.SOCK_STREAM | Libc.SOCK_CLOEXEC, 0);
        check(fd, "socket");
        Memory addr = new Memory(2 + SUN_PATH);
        addr.clear();
        addr.setShort(0, (short) Libc.AF_UNIX);
        addr.write(2, p, 0, p.length);
        try {
            check(Libc.C.bind(fd, addr, 2 + SUN_PATH), "bind " + path);
            check(Libc.C.chmod(path, 0600), "chmod 0600 " + path);
            check(Libc.C.listen(fd, 128), "listen " + path);
            return fd;
        } catch (IOException e) {
            Libc.C.close(fd);
            throw e;
        }
    }

    /** The next connection, or -1 once the listening socket was shut down. */
    static int accept(int listener) {
        for (;;) {
            int fd = Libc.C.accept4(listener, null, null, Libc.SOCK_CLOEXEC);
            if (fd >= 0 || Native.getLastError() != Libc.EINTR) {
                return fd;
            }
        }
    }

    /** {pid, uid, gid} of the connected peer, as the kernel recorded them at connect time. */
    static int[] peer(int fd) throws IOException {
        Memory cred = new Memory(12);
        IntByReference len = new IntByReference(12);
        check(Libc.C.getsockopt(fd, Libc.SOL_SOCKET, Libc.SO_PEERCRED, cred, len), "SO_PEERCRED");
        return new int[] {cred.getInt(0), cred.getInt(4), cred.getInt(8)};
    }

    /** Reads the first byte together with any descriptors attached to it (at most {@code max}). */
    static Received receiveFirst(int fd, int max) throws IOException {
        Memory data = new Memory(1);
        Memory iov = new Memory(16);
        iov.setPointer(0, data);
        iov.setLong(8, 1);
        int ctlLen = 16 + ((4 * max + 7) & ~7);
        Memory ctl = new Memory(ctlLen);
        ctl.clear();
        Memory msg = new Memory(56);
        msg.clear();
        msg.setPointer(16, iov);
        msg.setLong(24, 1);
        msg.setPointer(32, ctl);
        msg.setLong(40, ctlLen);
        long n;
        do {
            n = Libc.C.recvmsg(fd, msg, Libc.MSG_CMSG_CLOEXEC);
        } while (n < 0 && Native.getLastError() == Libc.EINTR);
        check((int) n, "recvmsg");
        int[] fds = new int[0];
        long used = msg.getLong(40);
        for (long off = 0; off + 16 <= used; ) {
            long cmsgLen = ctl.getLong(off);
            if (cmsgLen < 16) {
                break;
            }
            if (ctl.getInt(off + 8) == Libc.SOL_SOCKET && ctl.getInt(off + 12) == Libc.SCM_RIGHTS) {
                int count = (int) ((cmsgLen - 16) / 4);
                int base = fds.length;
                fds = Arrays.copyOf(fds, base + count);
                for (int i = 0; i < count; i++) {
                    fds[base + i] = ctl.getInt(off + 16 + 4L * i);
                }
            }
            off += (cmsgLen + 7) & ~7L;
        }
        return new Received(n == 0 ? -1 : data.getByte(0) & 0xff, fds);
    }

    record Received(int firstByte, int[] fds) {
    }

    /** Up to {@code len} bytes into {@code b} at {@code off}; -1 at the end of the stream or on an error. */
    static int read(int fd, byte[] b, int off, int len) {
        byte[] chunk = new byte[Math.min(len, 65536)];
        for (;;) {
            long n = Libc.C.read(fd, chunk, chunk.length);
            if (n < 0 && Native.getLastError() == Libc.EINTR) {
                continue;
            }
            if (n <= 0) {
                return -1;
            }
            System.arraycopy(chunk, 0, b, off, (int) n);
            return (int) n;
        }
    }

    /** One byte, or -1 at end of stream or error. */
    static int readByte(int fd) {
        byte[] one = new byte[1];
        for (;;) {
            long n = Libc.C.read(fd, one, 1);
            if (n < 0 && Native.getLastError() == Libc.EINTR) {
                continue;
            }
            return n == 1 ? one[0] & 0xff : -1;
        }
    }

    static void write(int fd, byte[] frame) throws IOException {
        new FdOutputStream(fd).write(frame);
    }

    static void closeQuietly(int fd) {
        if (fd >= 0) {
            Libc.C.close(fd);
        }
    }

    private static void check(int rc, String what) throws IOException {
        if (rc < 0) {
            throw new IOException(what + " failed, errno " + Native.getLastError());
        }
    }
}
