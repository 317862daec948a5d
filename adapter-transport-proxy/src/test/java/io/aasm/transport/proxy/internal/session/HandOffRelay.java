package io.aasm.transport.proxy.internal.session;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The relay's side of the hand-off protocol (version 1, the native adapter's PROTOCOL.md), played by the test
 * on real sockets through libc: it connects to the session, announces the capability before the credential, and
 * reads the proxy's answers with recvmsg so it can take the descriptors the proxy hands over. The launcher's
 * relay itself is tested with the real proxy end to end (distribution, MediationHandOffIT).
 */
final class HandOffRelay implements AutoCloseable {
    interface C extends Library {
        C LIBC = Native.load("c", C.class);

        int socket(int domain, int type, int protocol);

        int connect(int fd, byte[] addr, int len);

        long write(int fd, byte[] buf, long n);

        long read(int fd, byte[] buf, long n);

        long recvmsg(int fd, Pointer msg, int flags);

        int shutdown(int fd, int how);

        int close(int fd);
    }

    static final byte[] CAPABILITY = {(byte) 0xFF, 'A', 'H', 1};
    final int session;
    int upstream = -1;
    int report = -1;

    HandOffRelay(Path socket, byte[] capability, byte[] preamble) {
        session = C.LIBC.socket(1, 1, 0);
        byte[] sa = new byte[110];
        sa[0] = 1;
        byte[] p = socket.toString().getBytes(StandardCharsets.UTF_8);
        System.arraycopy(p, 0, sa, 2, p.length);
        if (session < 0 || C.LIBC.connect(session, sa, sa.length) != 0) {
            throw new IllegalStateException("connect to the session: errno " + Native.getLastError());
        }
        write(session, capability);
        write(session, preamble);
    }

    static void write(int fd, byte[] b) {
        if (C.LIBC.write(fd, b, b.length) != b.length) {
            throw new IllegalStateException("write: errno " + Native.getLastError());
        }
    }

    static void write(int fd, String s) {
        write(fd, s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Reads the proxy's answers until a message with descriptors: returns the answer bytes and its marker. */
    String untilMarker() {
        StringBuilder answers = new StringBuilder();
        while (true) {
            Memory data = new Memory(4096);
            Memory iov = new Memory(16);
            iov.setPointer(0, data);
            iov.setLong(8, 4096);
            Memory control = new Memory(64);
            control.clear();
            Memory msg = new Memory(56);
            msg.clear();
            msg.setPointer(16, iov);
            msg.setLong(24, 1);
            msg.setPointer(32, control);
            msg.setLong(40, 64);
            long n = C.LIBC.recvmsg(session, msg, 0x40000000); // MSG_CMSG_CLOEXEC
            if (n <= 0) {
                return answers.append("<end>").toString();
            }
            answers.append(new String(data.getByteArray(0, (int) n), StandardCharsets.ISO_8859_1));
            if (msg.getLong(40) >= 16 && control.getInt(8) == 1 && control.getInt(12) == 1) {
                int nfds = (int) ((control.getLong(0) - 16) / 4);
                upstream = control.getInt(16);
                report = nfds > 1 ? control.getInt(20) : -1;
                return answers.toString();
            }
        }
    }

    static String readAll(int fd) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] b = new byte[8192];
        long n;
        while ((n = C.LIBC.read(fd, b, b.length)) > 0) {
            out.write(b, 0, (int) n);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** The report the launcher's relay writes when the tunnel ends. */
    void report(long up, long down, int flags) {
        byte[] m = new byte[24];
        m[0] = 'A';
        m[1] = 'H';
        m[2] = 'C';
        m[3] = 1;
        for (int i = 0; i < 8; i++) {
            m[4 + i] = (byte) (up >>> (8 * i));
            m[12 + i] = (byte) (down >>> (8 * i));
        }
        m[20] = (byte) flags;
        write(report, m);
    }

    @Override
    public void close() {
        for (int fd : new int[] {session, upstream, report}) {
            if (fd >= 0) {
                C.LIBC.close(fd);
            }
        }
    }
}
