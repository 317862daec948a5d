package io.aasm.conformance.internal.catalogue;

import java.util.Objects;

/** A scenario made ready on this host, or the reason this host cannot stage it. */
public sealed interface Staging {
    record Ready(Staged staged) implements Staging {
        public Ready {
            Objects.requireNonNull(staged);
        }
    }

    record CannotHost(String reason) implements Staging {
        public CannotHost {
            Objects.requireNonNull(reason);
        }
    }
}
