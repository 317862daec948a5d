package io.aasm.backend.landlockseccomp.internal.kernel;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import io.aasm.ports.transport.EgressDecision;
import io.aasm.ports.transport.MediationSession;
import io.aasm.ports.transport.MediationTally;
import io.aasm.ports.transport.RelayEndpoint;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The proxy's side of the hand-off (PROTOCOL.md, "Hand-off"), played by the test on real sockets through libc, for
 * the relay's own tests: it takes one connection, checks the capability and the preamble, reads the request head,
 * dials the test's server on 127.0.0.1, answers, hands the upstream socket and a report socket over, forwards what
 * it read past the head, closes, and returns the relay's report. The real proxy does the same in
 * adapter-transport-proxy (HandOff); the two are tested together end to end in the distribution.
 */
final class HandingProxy implements MediationSession {
    interface C extends Library {
        C LIBC = Native.load("c", C.class);

        int socket(int domain, int type, int protocol);

        int bind(int fd, byte[] addr, int len);

        int listen(int fd, int backlog);

        int accept(int fd, Memory addr, Memory len);

        int connect(int fd, byte[] addr, int len);

        long read(int fd, byte[] buf, long n);

        long write(int fd, byte[] buf, long n);

        long sendmsg(int fd, Memory msg, int flags);

        int socketpair(int domain, int type, int protocol, int[] fds);

        int close(int fd);
    }

    /** What the relay reported and what the stand-in forwarded itself. */
    record Outcome(boolean credentialed, long forwarded, long up, long down, int flags) {
    }

    private final byte[] preamble = new byte[32];
    private final Path socket;
    private final int listener;
    private final int serverPort;
    final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

    HandingProxy(Path dir, int serverPort) {
        this.serverPort = serverPort;
        new SecureRandom().nextBytes(preamble);
        preamble[0] = 0x11;
        socket = dir.resolve("handing.sock");
        byte[] sa = new byte[110];
        sa[0] = 1;
        byte[] p = socket.toString().getBytes(StandardCharsets.UTF_8);
        System.arraycopy(p, 0, sa, 2, p.length);
        listener = C.LIBC.socket(1, 1 | 0x80000, 0);
        if (listener < 0 || C.LIBC.bind(listener, sa, sa.length) != 0 || C.LIBC.listen(listener, 8) != 0) {
            throw new IllegalStateException("listen on " + socket + ": errno " + Native.getLastError());
        }
        Thread t = new Thread(this::serve, "handing-proxy");
        t.setDaemon(true);
        t.start();
    }

    private void serve() {
        int c = C.LIBC.accept(listener, null, null);
        int up = -1;
        int[] pair = {-1, -1};
        try {
            byte[] first = readExactly(c, 4 + preamble.length);
            byte[] want = new byte[4 + preamble.length];
            System.arraycopy(RelayStandIn.CAPABILITY, 0, want, 0, 4);
            System.arraycopy(preamble, 0, want, 4, preamble.length);
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            byte[] b = new byte[65536];
            while (!head.toString(StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
                long n = C.LIBC.read(c, b, b.length);
                if (n <= 0) {
                    throw new IllegalStateException("no request head");
                }
                head.write(b, 0, (int) n);
            }
            byte[] all = head.toByteArray();
            int end = head.toString(StandardCharsets.ISO_8859_1).indexOf("\r\n\r\n") + 4;
            byte[] leftover = Arrays.copyOfRange(all, end, all.length);
            up = C.LIBC.socket(2, 1 | 0x80000, 0);
            byte[] sin = {2, 0, (byte) (serverPort >> 8), (byte) serverPort, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
            if (up < 0 || C.LIBC.connect(up, sin, sin.length) != 0) {
                throw new IllegalStateException("dial: errno " + Native.getLastError());
            }
            writeAll(c, "HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            C.LIBC.socketpair(1, 1 | 0x80000, 0, pair);
            send(c, up, pair[1]);
            C.LIBC.close(pair[1]);
            pair[1] = -1;
            long forwarded = leftover.length;
            writeAll(up, leftover);
            long n;
            while ((n = C.LIBC.read(c, b, b.length)) > 0) {
                writeAll(up, Arrays.copyOf(b, (int) n));
                forwarded += n;
            }
            C.LIBC.close(c);
            c = -1;
            C.LIBC.close(up);
            up = -1;
            byte[] r = readExactly(pair[0], 24);
            outcome.complete(new Outcome(Arrays.equals(first, want), forwarded, le(r, 4), le(r, 12), r[20]));
        } catch (RuntimeException e) {
            outcome.completeExceptionally(e);
        } finally {
            for (int fd : new int[] {c, up, pair[0], pair[1]}) {
                if (fd >= 0) {
                    C.LIBC.close(fd);
                }
            }
        }
    }

    private static void send(int fd, int first, int second) {
        Memory data = new Memory(1);
        data.setByte(0, (byte) 'H');
        Memory iov = new Memory(16);
        iov.setPointer(0, data);
        iov.setLong(8, 1);
        Memory control = new Memory(24);
        control.setLong(0, 24);
        control.setInt(8, 1);
        control.setInt(12, 1);
        control.setInt(16, first);
        control.setInt(20, second);
        Memory msg = new Memory(56);
        msg.clear();
        msg.setPointer(16, iov);
        msg.setLong(24, 1);
        msg.setPointer(32, control);
        msg.setLong(40, 24);
        if (C.LIBC.sendmsg(fd, msg, 0x4000) != 1) {
            throw new IllegalStateException("sendmsg: errno " + Native.getLastError());
        }
    }

    private static byte[] readExactly(int fd, int len) {
        byte[] out = new byte[len];
        int have = 0;
        byte[] b = new byte[len];
        while (have < len) {
            long n = C.LIBC.read(fd, b, len - have);
            if (n <= 0) {
                throw new IllegalStateException("end of stream after " + have + " of " + len + " bytes");
            }
            System.arraycopy(b, 0, out, have, (int) n);
            have += (int) n;
        }
        return out;
    }

    private static void writeAll(int fd, byte[] b) {
        int off = 0;
        while (off < b.length) {
            byte[] rest = Arrays.copyOfRange(b, off, b.length);
            long n = C.LIBC.write(fd, rest, rest.length);
            if (n <= 0) {
                throw new IllegalStateException("write: errno " + Native.getLastError());
            }
            off += (int) n;
        }
    }

    private static long le(byte[] m, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (m[at + i] & 0xff);
        }
        return v;
    }

    @Override
    public String launchId() {
        return "handing-stand-in";
    }

    @Override
    public Optional<RelayEndpoint> relay() {
        return Optional.of(new RelayEndpoint(socket, preamble));
    }

    @Override
    public Map<String, String> environment() {
        return Map.of();
    }

    @Override
    public List<EgressDecision> decisions() {
        return List.of();
    }

    @Override
    public MediationTally tally() {
        return new MediationTally(0, 0, 0, 0);
    }

    @Override
    public Optional<Path> decisionLog() {
        return Optional.empty();
    }

    @Override
    public void close() {
        C.LIBC.close(listener);
    }
}
