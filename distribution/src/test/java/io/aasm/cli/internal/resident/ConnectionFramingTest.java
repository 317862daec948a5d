package io.aasm.cli.internal.resident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import io.aasm.cli.internal.CommandEntry;
import io.aasm.cli.internal.CommandInvocation;
import io.aasm.cli.internal.wire.Frames;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real connection over a real socket pair: every malformed request is answered {@code E} with what
 * is wrong, the connection is closed, and the command layer is never called. The control sends the
 * same request well-formed, with its descriptors, and the command runs.
 */
class ConnectionFramingTest {
    private final List<CommandInvocation> calls = new CopyOnWriteArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final int[] pair = new int[2];

    @AfterEach
    void close() {
        pool.shutdownNow();
        UnixSockets.closeQuietly(pair[0]);
    }

    @Test
    void anUnknownKindIsRefusedAndNothingRuns() throws Exception {
        assertRefused(new byte[] {'A', 'A', 'S', 'M', 'Z', 0, 0, 0, 0}, "unknown request kind 'Z'");
    }

    @Test
    void anOversizeRequestIsRefusedBeforeItsPayloadIsRead() throws Exception {
        assertRefused(new byte[] {'A', 'A', 'S', 'M', 'R', 0x7f, 0, 0, 0}, "request too large (2130706432 bytes");
    }

    @Test
    void aTruncatedRequestIsRefused() throws Exception {
        assertRefused(new byte[] {'A', 'A', 'S'}, "truncated request head: the connection closed after 2 of 8 bytes");
        byte[] cut = Frames.request(Frames.RUN, payload("1", "/h", "/", "1", "version", "0"));
        assertRefused(java.util.Arrays.copyOf(cut, cut.length - 3), "truncated request payload");
    }

    @Test
    void aRunWithoutItsDescriptorsIsRefused() throws Exception {
        assertRefused(Frames.request(Frames.RUN, payload("1", "/h", "/", "1", "version", "0")),
                "the client sent 0 descriptors instead of stdin, stdout and stderr");
    }

    @Test
    void controlTheSameRunWellFormedWithItsDescriptorsIsServed() throws Exception {
        Future<?> served = serve();
        byte[] frame = Frames.request(Frames.RUN, payload("1", "/h", "/", "1", "version", "1", "A=1"));
        int devNull = Libc.C.socket(Libc.AF_UNIX, Libc.SOCK_STREAM | Libc.SOCK_CLOEXEC, 0);
        try {
            sendFirstWithDescriptors(pair[0], frame[0], new int[] {devNull, devNull, devNull});
        } finally {
            UnixSockets.closeQuietly(devNull);
        }
        write(java.util.Arrays.copyOfRange(frame, 1, frame.length));
        Frames.Answer a = Frames.answer((b, off, len) -> UnixSockets.read(pair[0], b, off, len));
        assertEquals(new Frames.Answer(Frames.EXIT, 7, ""), a);
        served.get(10, TimeUnit.SECONDS);
        assertEquals(1, calls.size());
        assertEquals(List.of("version"), calls.get(0).args());
        assertEquals(CommandInvocation.Face.RESIDENT, calls.get(0).caller().face());
        assertEquals(Libc.C.geteuid(), calls.get(0).caller().uid(), "the peer's uid as SO_PEERCRED gave it");
    }

    private void assertRefused(byte[] bytes, String expected) throws Exception {
        calls.clear();
        Future<?> served = serve();
        write(bytes);
        Libc.C.shutdown(pair[0], 1); // SHUT_WR: the client has said all it will say
        Frames.Answer a = Frames.answer((b, off, len) -> UnixSockets.read(pair[0], b, off, len));
        assertEquals(Frames.ERROR, a.kind(), a.text());
        assertTrue(a.text().contains(expected) && a.text().endsWith("nothing was launched"), a.text());
        assertEquals(-1, UnixSockets.read(pair[0], new byte[1], 0, 1), "the connection is closed after the refusal");
        served.get(10, TimeUnit.SECONDS);
        assertEquals(List.of(), calls, "the command layer was called");
        UnixSockets.closeQuietly(pair[0]);
    }

    private Future<?> serve() {
        assertEquals(0, Libc.C.socketpair(Libc.AF_UNIX, Libc.SOCK_STREAM | Libc.SOCK_CLOEXEC, 0, pair));
        return pool.submit(new Connection(pair[1], new StubServer(), pool));
    }

    private void write(byte[] bytes) {
        assertEquals(bytes.length, Libc.C.write(pair[0], bytes, bytes.length));
    }

    private static byte[] payload(String... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String p : parts) {
            b.writeBytes(p.getBytes(StandardCharsets.UTF_8));
            b.write(0);
        }
        return b.toByteArray();
    }

    /** What bin/aasm-client does: the descriptors ride on the first byte (SCM_RIGHTS). LP64 layout. */
    private static void sendFirstWithDescriptors(int fd, byte first, int[] fds) {
        Memory data = new Memory(1);
        data.setByte(0, first);
        Memory iov = new Memory(16);
        iov.setPointer(0, data);
        iov.setLong(8, 1);
        int ctlLen = 16 + ((4 * fds.length + 7) & ~7);
        Memory ctl = new Memory(ctlLen);
        ctl.clear();
        ctl.setLong(0, 16 + 4L * fds.length);
        ctl.setInt(8, Libc.SOL_SOCKET);
        ctl.setInt(12, Libc.SCM_RIGHTS);
        for (int i = 0; i < fds.length; i++) {
            ctl.setInt(16 + 4L * i, fds[i]);
        }
        Memory msg = new Memory(56);
        msg.clear();
        msg.setPointer(16, iov);
        msg.setLong(24, 1);
        msg.setPointer(32, ctl);
        msg.setLong(40, ctlLen);
        assertEquals(1, TestLibc.C.sendmsg(fd, msg, 0));
    }

    interface TestLibc extends com.sun.jna.Library {
        TestLibc C = com.sun.jna.Native.load("c", TestLibc.class);

        long sendmsg(int fd, com.sun.jna.Pointer msghdr, int flags);
    }

    /** The server side a connection needs, without a socket file; the peer is never confined here. */
    private final class StubServer implements Connection.Server {
        @Override
        public int uid() {
            return Libc.C.geteuid();
        }

        @Override
        public String socketPath() {
            return "/nowhere/aasm.sock";
        }

        @Override
        public String home() {
            return "/h";
        }

        @Override
        public CommandEntry entry() {
            return call -> {
                calls.add(call);
                return 7;
            };
        }

        @Override
        public String status() {
            return "running";
        }

        @Override
        public void stopSoon() {
        }

        @Override
        public CallerVerdict identify(int fd, long pid) {
            return new CallerVerdict(pid, List.of());
        }

        @Override
        public void log(String line) {
        }
    }
}
