package io.aasm.transport.proxy.internal.handoff;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Takes the proxy out of an admitted tunnel's byte path (PROTOCOL.md of the native adapter, "Hand-off"). The
 * relay that announced the capability reads the proxy's answers with {@code recvmsg}; after the tunnel's success
 * answer the proxy sends one marker byte {@code H} carrying the dialled upstream socket and one end of a fresh
 * socket pair. The relay then half-closes its side of the session connection: the proxy reads to that end of
 * file what the program had sent past its request, forwards it to the destination itself and closes; then the
 * relay splices the program's socket and the upstream socket directly and, when the tunnel ends, writes its byte
 * counts into the socket pair. Nothing here decides anything: admission, resolution and dialling happened before.
 */
public final class HandOff {
    /** The relay capability version this proxy speaks. */
    public static final int VERSION = 1;
    /** Why no hand-off can happen in this JVM at all, if so. */
    public static final Optional<String> UNAVAILABLE = Platform.isLinux() && Native.POINTER_SIZE == 8
            ? ChannelFds.UNAVAILABLE : Optional.of("hand-off needs 64-bit Linux");

    private HandOff() {
    }

    /** What the relay moved itself, once the tunnel ended; empty when it ended without telling. */
    public record Counts(long up, long down, boolean abnormal) {
    }

    /** The result of a hand-off: the bytes the proxy forwarded itself and the relay's report. */
    public record Outcome(long forwarded, Optional<Counts> relay) {
    }

    /**
     * Hands the upstream over; empty when it could not be handed (nothing was sent: the caller tunnels itself).
     * {@code leftover}: what the proxy had already read past the request.
     */
    public static Optional<Outcome> pass(SocketChannel client, SocketChannel upstream, ByteBuffer leftover,
                                         BooleanSupplier closing) throws IOException {
        int cfd = UNAVAILABLE.isPresent() ? -1 : ChannelFds.of(client);
        int ufd = cfd < 0 ? -1 : ChannelFds.of(upstream);
        int[] pair = new int[2];
        if (ufd < 0 || NativeSockets.INSTANCE.socketpair(NativeSockets.AF_UNIX,
                NativeSockets.SOCK_STREAM | NativeSockets.SOCK_CLOEXEC, 0, pair) != 0) {
            return Optional.empty();
        }
        try {
            boolean sent = send(cfd, 'H', ufd, pair[1]);
            NativeSockets.INSTANCE.close(pair[1]);
            pair[1] = -1;
            if (!sent) {
                return Optional.empty();
            }
            long forwarded = forward(leftover, upstream);
            // usually nothing follows: the program waits for the answer before it sends more (a heap buffer; the
            // channel reads through its thread's cached direct one, no fresh 64 KiB allocation per tunnel)
            ByteBuffer buf = ByteBuffer.allocate(8 * 1024);
            while (client.read(buf) >= 0) {
                buf.flip();
                forwarded += forward(buf, upstream);
                buf.clear();
            }
            // the relay's go: it holds its own copies of both sockets now
            client.close();
            upstream.close();
            return Optional.of(new Outcome(forwarded, Report.await(pair[0], closing)));
        } finally {
            NativeSockets.INSTANCE.close(pair[0]);
            if (pair[1] >= 0) {
                NativeSockets.INSTANCE.close(pair[1]);
            }
        }
    }

    /**
     * Tells the relay that this connection stays in the proxy's byte path (plain HTTP, which the proxy rewrites),
     * so it splices the proxy's side from here on. Best effort: without it the relay still forwards the answers.
     */
    public static void keep(SocketChannel client, SocketChannel upstream) {
        int cfd = UNAVAILABLE.isPresent() ? -1 : ChannelFds.of(client);
        int ufd = cfd < 0 ? -1 : ChannelFds.of(upstream);
        if (ufd >= 0) {
            send(cfd, 'P', ufd, -1); // the relay closes the descriptor that only carries the marker
        }
    }

    private static long forward(ByteBuffer b, SocketChannel to) throws IOException {
        long n = b.remaining();
        while (b.hasRemaining()) {
            to.write(b);
        }
        return n;
    }

    /** One marker byte with one or two descriptors in SCM_RIGHTS (LP64 layouts of msghdr, iovec and cmsghdr). */
    private static boolean send(int fd, char marker, int first, int second) {
        int nfds = second < 0 ? 1 : 2;
        Memory data = new Memory(1);
        data.setByte(0, (byte) marker);
        Memory iov = new Memory(16);
        iov.setPointer(0, data);
        iov.setLong(8, 1);
        Memory control = new Memory(24);
        control.clear();
        control.setLong(0, 16 + 4L * nfds); // CMSG_LEN
        control.setInt(8, NativeSockets.SOL_SOCKET);
        control.setInt(12, NativeSockets.SCM_RIGHTS);
        control.setInt(16, first);
        if (nfds == 2) {
            control.setInt(20, second);
        }
        Memory msg = new Memory(56);
        msg.clear();
        msg.setPointer(16, iov);
        msg.setLong(24, 1);
        msg.setPointer(32, control);
        msg.setLong(40, nfds == 2 ? 24 : 24); // CMSG_SPACE of one or two ints is 24 on LP64
        for (int attempt = 0; attempt < 100; attempt++) {
            long n = NativeSockets.INSTANCE.sendmsg(fd, msg, NativeSockets.MSG_NOSIGNAL);
            if (n == 1) {
                return true;
            }
            int errno = Native.getLastError();
            if (errno != 11 && errno != 4) { // EAGAIN (a non-blocking descriptor with a full buffer), EINTR
                return false;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
