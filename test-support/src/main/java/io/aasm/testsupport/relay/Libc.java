package io.aasm.testsupport.relay;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The libc calls the hand-off stand-ins make on real sockets (x86-64/aarch64 Linux layouts): the JDK cannot pass
 * or take a descriptor (SCM_RIGHTS), so both sides of the hand-off are played through these.
 */
public interface Libc extends Library {
    Libc LIBC = Native.load("c", Libc.class);
    int AF_UNIX = 1;
    int AF_INET = 2;
    int SOCK_STREAM = 1;
    int SOCK_CLOEXEC = 0x80000;

    int socket(int domain, int type, int protocol);

    int bind(int fd, byte[] addr, int len);

    int listen(int fd, int backlog);

    int accept(int fd, Memory addr, Memory len);

    int connect(int fd, byte[] addr, int len);

    long read(int fd, byte[] buf, long n);

    long write(int fd, byte[] buf, long n);

    long sendmsg(int fd, Pointer msg, int flags);

    long recvmsg(int fd, Pointer msg, int flags);

    int socketpair(int domain, int type, int protocol, int[] fds);

    int shutdown(int fd, int how);

    int close(int fd);

    /** A {@code sockaddr_un} naming {@code socket}. */
    static byte[] unixAddress(Path socket) {
        byte[] sa = new byte[110];
        sa[0] = AF_UNIX;
        byte[] p = socket.toString().getBytes(StandardCharsets.UTF_8);
        System.arraycopy(p, 0, sa, 2, p.length);
        return sa;
    }

    /** A {@code sockaddr_in} for 127.0.0.1:{@code port}. */
    static byte[] loopbackAddress(int port) {
        return new byte[] {AF_INET, 0, (byte) (port >> 8), (byte) port, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    }

    /** A {@code struct msghdr} with one data buffer and a control buffer (no name). */
    static Memory message(Memory data, long dataLength, Memory control, long controlLength) {
        Memory iov = new Memory(16);
        iov.setPointer(0, data);
        iov.setLong(8, dataLength);
        Memory msg = new Memory(56);
        msg.clear();
        msg.setPointer(16, iov);
        msg.setLong(24, 1);
        msg.setPointer(32, control);
        msg.setLong(40, controlLength);
        return msg;
    }

    static void writeAll(int fd, byte[] b) {
        int off = 0;
        while (off < b.length) {
            byte[] rest = Arrays.copyOfRange(b, off, b.length);
            long n = LIBC.write(fd, rest, rest.length);
            if (n <= 0) {
                throw new IllegalStateException("write: errno " + Native.getLastError());
            }
            off += (int) n;
        }
    }

    static byte[] readExactly(int fd, int len) {
        byte[] out = new byte[len];
        int have = 0;
        byte[] b = new byte[len];
        while (have < len) {
            long n = LIBC.read(fd, b, len - have);
            if (n <= 0) {
                throw new IllegalStateException("end of stream after " + have + " of " + len + " bytes");
            }
            System.arraycopy(b, 0, out, have, (int) n);
            have += (int) n;
        }
        return out;
    }
}
