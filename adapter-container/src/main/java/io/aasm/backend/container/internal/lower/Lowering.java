package io.aasm.backend.container.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.List;
import java.util.Objects;

/** The outcome of lowering a launch: a complete plan, or the first requirement that cannot be installed. */
public sealed interface Lowering {
    /** {@code general}: run-level steps that belong to no stated domain (the hardening every launch gets). */
    record Lowered(ContainerPlan plan, List<String> general) implements Lowering {
        public Lowered {
            Objects.requireNonNull(plan);
            general = List.copyOf(general);
        }
    }

    record Refused(CapabilityDomain domain, String detail) implements Lowering {
        public Refused {
            Objects.requireNonNull(domain);
            Objects.requireNonNull(detail);
        }
    }
}
