package io.aasm.backend.landlockseccomp.internal.launcher;

import com.sun.jna.Native;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.util.Optional;

/**
 * A launch's channel when its plan travels with the zygote request (PROTOCOL.md, "Zygote"): a connected
 * {@code AF_UNIX} stream pair made here, the plan written into it before the request, the launcher's end sent
 * with the request (it becomes the launcher's fd 3) and this end kept as the status channel and lifeline.
 *
 * <p>The JDK cannot make a socket pair, so this end is a raw descriptor read through libc. Closing cuts the
 * lifeline at once ({@code shutdown}: the launcher reads end of file, exactly as when the descriptor is
 * closed) and the descriptor itself is closed only once the status reader has also stopped, so its number
 * is never reused under a read in progress.
 */
final class PlanChannel implements ByteChannel {
    private static final ZygoteCalls C = ZygoteCalls.INSTANCE;
    private final int own;
    private int launcherEnd;
    private final int planLength;
    private boolean closed, readerDone, released;

    private PlanChannel(int own, int launcherEnd, int planLength) {
        this.own = own;
        this.launcherEnd = launcherEnd;
        this.planLength = planLength;
    }

    /**
     * A pair holding {@code plan} ready to read, or empty when the plan does not fit the socket's buffer
     * without waiting (the launch then takes the connecting channel).
     */
    static Optional<PlanChannel> holding(byte[] plan) throws IOException {
        int[] sv = new int[2];
        if (C.socketpair(ZygoteCalls.AF_UNIX, ZygoteCalls.SOCK_STREAM | ZygoteCalls.SOCK_CLOEXEC, 0, sv) < 0) {
            throw new IOException("socketpair: errno " + Native.getLastError());
        }
        long n = C.send(sv[0], plan, plan.length, ZygoteCalls.MSG_DONTWAIT | ZygoteCalls.MSG_NOSIGNAL);
        if (n != plan.length) {
            C.close(sv[0]);
            C.close(sv[1]);
            return Optional.empty();
        }
        return Optional.of(new PlanChannel(sv[0], sv[1], plan.length));
    }

    /** The launcher's end, to send with the request (then {@link #sent}). */
    int launcherEnd() {
        return launcherEnd;
    }

    /** The zygote has answered with a launcher: only that launcher holds its end now. */
    synchronized void sent() {
        if (launcherEnd >= 0) {
            C.close(launcherEnd);
            launcherEnd = -1;
        }
    }

    /**
     * After a request the zygote failed to answer: takes the plan back out of the launcher's end. True when all
     * of it came back, so no launcher can run it and the launch may start again elsewhere; false when some
     * process (a launcher the zygote handed it to) read it.
     */
    synchronized boolean withdraw() {
        if (launcherEnd < 0) {
            return false;
        }
        byte[] buf = new byte[Math.max(1, planLength)];
        long got = 0, n;
        while (got < planLength && (n = C.recv(launcherEnd, buf, buf.length, ZygoteCalls.MSG_DONTWAIT)) > 0) {
            got += n;
        }
        return got == planLength;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        synchronized (this) {
            if (released) {
                throw new ClosedChannelException();
            }
        }
        byte[] b = new byte[dst.remaining()];
        long n;
        do {
            n = C.recv(own, b, b.length, 0);
        } while (n < 0 && Native.getLastError() == ZygoteCalls.EINTR);
        if (n < 0) {
            throw new IOException("status channel: errno " + Native.getLastError());
        }
        if (n == 0) {
            return -1;
        }
        dst.put(b, 0, (int) n);
        return (int) n;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        throw new IOException("the plan was written with the request");
    }

    /** The status reader has seen the end: the descriptor may go once the lifeline is also cut. */
    synchronized void readerDone() {
        readerDone = true;
        release();
    }

    @Override
    public synchronized boolean isOpen() {
        return !closed;
    }

    /** Cuts the lifeline: the launcher sees end of file and ends its tree, as when the channel closes. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            C.shutdown(own, 2);
            sent();
            release();
        }
    }

    private void release() {
        if (closed && readerDone && !released) {
            released = true;
            C.close(own);
        }
    }
}
