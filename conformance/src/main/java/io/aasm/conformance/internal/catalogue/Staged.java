package io.aasm.conformance.internal.catalogue;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * One scenario staged in its workspace: the hostile policy, the control policy (one grant wider),
 * the action the grandchild performs, how the supervisor observes its effect, how to put the
 * fixtures back between the two runs, and how to remove them.
 *
 * <p>{@code denialSignature}, when present, is the exact diagnostic the action prints when its
 * critical step is refused by a permission decision (for example {@code "ptrace attach: errno=EPERM"}).
 * It lets a backend that denies a mechanism irrespective of any grant be judged prevented instead of
 * inconclusive, without letting a broken action (wrong path, missing binary) pass.
 */
public record Staged(String hostilePolicy, String controlPolicy, String controlGrant, String script,
                     Observation effect, Chore reset, Chore cleanup, Optional<String> denialSignature) {

    public Staged {
        Objects.requireNonNull(hostilePolicy);
        Objects.requireNonNull(controlPolicy);
        Objects.requireNonNull(controlGrant);
        Objects.requireNonNull(script);
        Objects.requireNonNull(effect);
        Objects.requireNonNull(reset);
        Objects.requireNonNull(cleanup);
        Objects.requireNonNull(denialSignature);
        if (hostilePolicy.equals(controlPolicy) && !controlGrant.startsWith("none:")) {
            throw new IllegalArgumentException("a control must differ from the hostile policy by one grant");
        }
    }

    /** Observes the effect after the launch ended and its tree was torn down. */
    @FunctionalInterface
    public interface Observation {
        Effect observe() throws IOException;
    }

    /** A fixture chore (reset between runs, cleanup at the end). */
    @FunctionalInterface
    public interface Chore {
        void run() throws IOException;

        static Chore nothing() {
            return () -> { };
        }

        default Chore andThen(Chore next) {
            return () -> {
                try {
                    run();
                } finally {
                    next.run();
                }
            };
        }
    }
}
