package io.aasm.conformance.internal.catalogue;

import io.aasm.ports.capability.PlatformBoundary;
import java.util.Map;
import java.util.Objects;

/** A scenario made ready on this host, or the reason this host cannot stage it. */
public sealed interface Staging {
    /**
     * {@code cannotHostOn}: kinds of boundary on which no control of this scenario can have its effect whatever
     * the policy says (with the reason); a backend of such a boundary gets {@code cannot-host} for it.
     */
    record Ready(Staged staged, Map<PlatformBoundary, String> cannotHostOn) implements Staging {
        public Ready {
            Objects.requireNonNull(staged);
            cannotHostOn = Map.copyOf(cannotHostOn);
        }

        public Ready(Staged staged) {
            this(staged, Map.of());
        }
    }

    record CannotHost(String reason) implements Staging {
        public CannotHost {
            Objects.requireNonNull(reason);
        }
    }
}
