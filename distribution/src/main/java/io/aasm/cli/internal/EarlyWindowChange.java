package io.aasm.cli.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * What a face's {@code onSignal} holds until a program runs: it remembers that the caller's window changed
 * size. The launcher copies the caller's size when it makes the program's terminal, but the program runs (and
 * answers its caller) before the command installs its {@link SignalForwarder}; a SIGWINCH in between used to
 * go nowhere, and the program's terminal kept the old size for good (TerminalIT, resident path, load 44).
 * The forwarder replays a change this saw; a change that lands while it is being installed is handed on here.
 * Either may deliver it twice, which is harmless: every backend answers SIGWINCH by copying the size again.
 */
public final class EarlyWindowChange implements IntConsumer {
    private final AtomicReference<IntConsumer> slot;
    private final AtomicBoolean seen = new AtomicBoolean();

    private EarlyWindowChange(AtomicReference<IntConsumer> slot) {
        this.slot = slot;
    }

    /** Puts a new one in {@code slot} (the face's {@code onSignal}, still empty) and returns it. */
    public static EarlyWindowChange installIn(AtomicReference<IntConsumer> slot) {
        EarlyWindowChange early = new EarlyWindowChange(slot);
        slot.set(early);
        return early;
    }

    @Override
    public void accept(int signal) {
        if (signal != SignalForwarder.SIGWINCH) {
            return; // an ending signal before launch is the face's firstSignal, not ours
        }
        seen.set(true);
        // Set before this read: a forwarder installed in between either saw the flag or is found here.
        IntConsumer now = slot.get();
        if (now != null && now != this) {
            now.accept(signal);
        }
    }

    /** Whether the caller's window changed since this was installed. */
    boolean seen() {
        return seen.get();
    }
}
