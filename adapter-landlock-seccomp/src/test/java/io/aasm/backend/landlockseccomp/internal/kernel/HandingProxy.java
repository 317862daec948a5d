package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.testsupport.relay.Libc.LIBC;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import io.aasm.testsupport.relay.HandOffWire;
import io.aasm.testsupport.relay.Libc;
import io.aasm.testsupport.relay.StandInSession;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The proxy's side of the hand-off (PROTOCOL.md, "Hand-off"), played by the test on real sockets through libc, for
 * the relay's own tests: it takes one connection, checks the capability and the preamble, reads the request head,
 * dials the test's server on 127.0.0.1, answers, hands the upstream socket and a report socket over, forwards what
 * it read past the head, closes, and returns the relay's report. The real proxy does the same in
 * adapter-transport-proxy (HandOff); the two are tested together end to end in the distribution.
 */
final class HandingProxy extends StandInSession {
    /** What the relay reported and what the stand-in forwarded itself. */
    record Outcome(boolean credentialed, long forwarded, long up, long down, int flags) {
    }

    private final int listener;
    private final int serverPort;
    final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

    HandingProxy(Path dir, int serverPort) {
        super("handing-stand-in", dir.resolve("handing.sock"), handingPreamble(), Map.of());
        this.serverPort = serverPort;
        byte[] sa = Libc.unixAddress(socket());
        listener = LIBC.socket(Libc.AF_UNIX, Libc.SOCK_STREAM | Libc.SOCK_CLOEXEC, 0);
        if (listener < 0 || LIBC.bind(listener, sa, sa.length) != 0 || LIBC.listen(listener, 8) != 0) {
            throw new IllegalStateException("listen on " + socket() + ": errno " + Native.getLastError());
        }
        Thread t = new Thread(this::serve, "handing-proxy");
        t.setDaemon(true);
        t.start();
    }

    /** Never starting with 0xFF, which announces the capability (as the real proxy's preambles never do). */
    private static byte[] handingPreamble() {
        byte[] p = randomPreamble();
        p[0] = 0x11;
        return p;
    }

    private void serve() {
        int c = LIBC.accept(listener, null, null);
        int up = -1;
        int[] pair = {-1, -1};
        try {
            byte[] first = Libc.readExactly(c, HandOffWire.CAPABILITY.length + preamble().length);
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            byte[] b = new byte[65536];
            while (!head.toString(StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
                long n = LIBC.read(c, b, b.length);
                if (n <= 0) {
                    throw new IllegalStateException("no request head");
                }
                head.write(b, 0, (int) n);
            }
            byte[] all = head.toByteArray();
            int end = head.toString(StandardCharsets.ISO_8859_1).indexOf("\r\n\r\n") + 4;
            byte[] leftover = Arrays.copyOfRange(all, end, all.length);
            up = LIBC.socket(Libc.AF_INET, Libc.SOCK_STREAM | Libc.SOCK_CLOEXEC, 0);
            byte[] sin = Libc.loopbackAddress(serverPort);
            if (up < 0 || LIBC.connect(up, sin, sin.length) != 0) {
                throw new IllegalStateException("dial: errno " + Native.getLastError());
            }
            Libc.writeAll(c, "HTTP/1.1 200 Connection Established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            LIBC.socketpair(Libc.AF_UNIX, Libc.SOCK_STREAM | Libc.SOCK_CLOEXEC, 0, pair);
            send(c, up, pair[1]);
            LIBC.close(pair[1]);
            pair[1] = -1;
            long forwarded = leftover.length;
            Libc.writeAll(up, leftover);
            long n;
            while ((n = LIBC.read(c, b, b.length)) > 0) {
                Libc.writeAll(up, Arrays.copyOf(b, (int) n));
                forwarded += n;
            }
            LIBC.close(c);
            c = -1;
            LIBC.close(up);
            up = -1;
            byte[] r = Libc.readExactly(pair[0], HandOffWire.REPORT_BYTES);
            outcome.complete(new Outcome(Arrays.equals(first, HandOffWire.announced(preamble())), forwarded,
                    HandOffWire.up(r), HandOffWire.down(r), HandOffWire.flags(r)));
        } catch (RuntimeException e) {
            outcome.completeExceptionally(e);
        } finally {
            for (int fd : new int[] {c, up, pair[0], pair[1]}) {
                if (fd >= 0) {
                    LIBC.close(fd);
                }
            }
        }
    }

    /** One byte, with the upstream and the report socket as SCM_RIGHTS. */
    private static void send(int fd, int first, int second) {
        Memory data = new Memory(1);
        data.setByte(0, (byte) 'H');
        Memory control = new Memory(24);
        control.setLong(0, 24);
        control.setInt(8, 1);
        control.setInt(12, 1);
        control.setInt(16, first);
        control.setInt(20, second);
        if (LIBC.sendmsg(fd, Libc.message(data, 1, control, 24), 0x4000) != 1) { // MSG_NOSIGNAL
            throw new IllegalStateException("sendmsg: errno " + Native.getLastError());
        }
    }

    @Override
    public void close() {
        LIBC.close(listener);
    }
}
