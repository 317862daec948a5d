package io.aasm.cli.internal.resident;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Reads a client's signal frames while its command runs and hands each signal over exactly as the
 * cold boot jar's handlers do ({@code firstSignal} before launch, {@code onSignal} once a program
 * runs). The end of the connection before the status went out means the client is gone: the tree is
 * asked to end (SIGTERM, not SIGHUP: the forwarder hands a SIGHUP to the program alone, as itself, and
 * without a boundary its grandchildren would then outlive it; a SIGTERM the backend cannot relay becomes
 * a graceful end of the whole tree), then ended immediately every 0.5 s until the command has returned.
 */
final class SignalRelay implements Runnable {
    private static final int SIGKILL = 9;
    private static final int SIGTERM = 15;
    private static final int SIGWINCH = 28;

    private final int fd;
    private final AtomicInteger firstSignal;
    private final AtomicReference<IntConsumer> onSignal;
    private final AtomicInteger done;

    SignalRelay(int fd, AtomicInteger firstSignal, AtomicReference<IntConsumer> onSignal, AtomicInteger done) {
        this.fd = fd;
        this.firstSignal = firstSignal;
        this.onSignal = onSignal;
        this.done = done;
    }

    @Override
    public void run() {
        for (;;) {
            int kind = UnixSockets.readByte(fd);
            if (kind == 'S') {
                int sig = UnixSockets.readByte(fd);
                if (sig > 0) {
                    deliver(sig);
                    continue;
                }
            }
            if (kind < 0 || kind == 'S') {
                break;
            }
            // unknown frame: ignore it, the status still goes out
        }
        for (int i = 0; done.get() == 0; i++) {
            deliver(i == 0 ? SIGTERM : SIGKILL);
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void deliver(int sig) {
        if (sig != SIGWINCH) {
            firstSignal.compareAndSet(0, sig); // a window change before launch is nothing to act on
        }
        IntConsumer c = onSignal.get();
        if (c != null) {
            c.accept(sig);
        }
    }
}
