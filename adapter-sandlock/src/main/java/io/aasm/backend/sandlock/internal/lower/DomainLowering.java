package io.aasm.backend.sandlock.internal.lower;

import java.util.List;
import java.util.Objects;

/** One requirement lowered to sandlock flags (with readable steps), or why it cannot be. */
public sealed interface DomainLowering {
    /** Flags to emit, and the human-readable steps (rendered, never parsed) that describe them. */
    record Flags(List<String> flags, List<String> steps) implements DomainLowering {
        public Flags {
            flags = List.copyOf(flags);
            steps = List.copyOf(steps);
        }
    }

    /** Sandlock 0.8.6 cannot express this scope; the sentence says why. */
    record Inexpressible(String reason) implements DomainLowering {
        public Inexpressible {
            Objects.requireNonNull(reason);
        }
    }
}
