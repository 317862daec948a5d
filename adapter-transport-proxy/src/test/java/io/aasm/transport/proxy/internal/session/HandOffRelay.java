package io.aasm.transport.proxy.internal.session;

import static io.aasm.testsupport.relay.Libc.LIBC;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import io.aasm.testsupport.relay.HandOffWire;
import io.aasm.testsupport.relay.Libc;
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
    static final byte[] CAPABILITY = HandOffWire.CAPABILITY;
    final int session;
    int upstream = -1;
    int report = -1;

    HandOffRelay(Path socket, byte[] capability, byte[] preamble) {
        this(socket, capability, preamble, false);
    }

    /**
     * {@code refusedAtOnce}: the proxy may refuse the capability and close before the rest is written (a malformed
     * capability), so a write that finds the session closed is the expected outcome, not a failure of the test.
     */
    HandOffRelay(Path socket, byte[] capability, byte[] preamble, boolean refusedAtOnce) {
        session = LIBC.socket(Libc.AF_UNIX, Libc.SOCK_STREAM, 0);
        byte[] sa = Libc.unixAddress(socket);
        if (session < 0 || LIBC.connect(session, sa, sa.length) != 0) {
            throw new IllegalStateException("connect to the session: errno " + Native.getLastError());
        }
        write(session, capability);
        if (refusedAtOnce) {
            writeUnlessClosed(session, preamble);
        } else {
            write(session, preamble);
        }
    }

    static void write(int fd, byte[] b) {
        Libc.writeAll(fd, b);
    }

    /** Writes, unless the peer has already closed (EPIPE, ECONNRESET): for bytes a refusal may never read. */
    static void writeUnlessClosed(int fd, byte[] b) {
        try {
            Libc.writeAll(fd, b);
        } catch (IllegalStateException e) {
            String m = String.valueOf(e.getMessage());
            if (!m.endsWith("errno 32") && !m.endsWith("errno 104")) {
                throw e;
            }
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
            Memory control = new Memory(64);
            control.clear();
            Memory msg = Libc.message(data, 4096, control, 64);
            long n = LIBC.recvmsg(session, msg, 0x40000000); // MSG_CMSG_CLOEXEC
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
        while ((n = LIBC.read(fd, b, b.length)) > 0) {
            out.write(b, 0, (int) n);
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** The report the launcher's relay writes when the tunnel ends. */
    void report(long up, long down, int flags) {
        write(report, HandOffWire.report(up, down, flags));
    }

    @Override
    public void close() {
        for (int fd : new int[] {session, upstream, report}) {
            if (fd >= 0) {
                LIBC.close(fd);
            }
        }
    }
}
