package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.Objects;

/** The outcome of lowering a launch: a complete plan, or the first requirement that cannot be installed. */
public sealed interface Lowering {
    record Lowered(LandlockSeccompPlan plan) implements Lowering {
        public Lowered {
            Objects.requireNonNull(plan);
        }
    }

    record Refused(CapabilityDomain domain, String detail) implements Lowering {
        public Refused {
            Objects.requireNonNull(domain);
            Objects.requireNonNull(detail);
        }
    }
}
