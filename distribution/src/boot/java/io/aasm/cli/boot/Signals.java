package io.aasm.cli.boot;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import sun.misc.Signal;

/**
 * SIGINT/SIGTERM/SIGHUP reach the JVM, not the program: the handler records the first signal (so a
 * run that has not launched yet can stop before launching) and hands every signal to whatever the
 * command layer registered (which forwards it to the confined tree).
 */
final class Signals {
    private Signals() {
    }

    static void forward(AtomicInteger firstSignal, AtomicReference<IntConsumer> onSignal) {
        for (String name : new String[] {"INT", "TERM", "HUP"}) {
            try {
                Signal.handle(new Signal(name), s -> {
                    firstSignal.compareAndSet(0, s.getNumber());
                    IntConsumer c = onSignal.get();
                    if (c != null) {
                        c.accept(s.getNumber());
                    }
                });
            } catch (IllegalArgumentException e) {
                // signal not available here (for example under -Xrs); nothing to forward then
            }
        }
    }
}
