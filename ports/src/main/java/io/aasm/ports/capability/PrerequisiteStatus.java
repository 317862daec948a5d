package io.aasm.ports.capability;

import java.util.Objects;

/** Whether a prerequisite was observed to hold on this host. Only {@link Satisfied} lets a domain prevent. */
public sealed interface PrerequisiteStatus {
    String token();

    /** Observed on this host, with what was observed (for example a denial seen by a probe). */
    record Satisfied(String observation) implements PrerequisiteStatus {
        public Satisfied {
            Objects.requireNonNull(observation, "observation");
        }

        @Override
        public String token() {
            return "satisfied";
        }
    }

    /** Observed not to hold, with what is missing and how to fix it. */
    record Unsatisfied(String detail) implements PrerequisiteStatus {
        public Unsatisfied {
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public String token() {
            return "unsatisfied";
        }
    }

    /** Not observed either way (inconclusive probe, probe not run). Never enough to prevent. */
    record Unchecked(String detail) implements PrerequisiteStatus {
        public Unchecked {
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public String token() {
            return "unchecked";
        }
    }
}
