package io.aasm.kernel.internal.selection;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The result of one call into an adapter. Adapters are third-party code as far as the kernel is
 * concerned: whatever they throw becomes a named fault for that adapter, never a kernel failure.
 */
public sealed interface Guarded<T> {

    record Ok<T>(T value) implements Guarded<T> {
        public Ok {
            Objects.requireNonNull(value, "an adapter returned null");
        }
    }

    record Fault<T>(String message) implements Guarded<T> {
        public Fault {
            Objects.requireNonNull(message);
        }
    }

    /** Calls {@code what}; {@code label} names the call in the fault message, e.g. {@code capabilities()}. */
    static <T> Guarded<T> call(String label, Supplier<T> what) {
        try {
            T value = what.get();
            if (value == null) {
                return new Fault<>(label + " returned nothing");
            }
            return new Ok<>(value);
        } catch (RuntimeException | LinkageError e) {
            return new Fault<>(describe(label, e));
        }
    }

    static String describe(String label, Throwable e) {
        String message = e.getMessage() == null ? "" : ": " + e.getMessage();
        return label + " threw " + e.getClass().getSimpleName() + message;
    }
}
