package io.aasm.policy.yaml.internal.rules;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** A checked value: the accepted value, or what is wrong with it and what to do. */
public sealed interface Checked<T> {
    record Ok<T>(T value) implements Checked<T> {
    }

    record Bad<T>(String message, String hint) implements Checked<T> {
    }

    static <T> Checked<T> ok(T value) {
        return new Ok<>(value);
    }

    static <T> Checked<T> bad(String message, String hint) {
        return new Bad<>(message, hint);
    }

    /** Hands the value or the (message, hint) pair to the matching consumer. */
    default void then(Consumer<T> onOk, BiConsumer<String, String> onBad) {
        if (this instanceof Ok<T> ok) {
            onOk.accept(ok.value());
        } else if (this instanceof Bad<T> bad) {
            onBad.accept(bad.message(), bad.hint());
        }
    }
}
