package io.aasm.ports.policy;

import java.util.List;
import java.util.Objects;

/** The outcome of loading a policy: a policy, or every problem found. Never a partial policy. */
public sealed interface PolicyLoad {
    record Loaded(Policy policy) implements PolicyLoad {
        public Loaded {
            Objects.requireNonNull(policy, "policy");
        }
    }

    record Rejected(List<PolicyProblem> problems) implements PolicyLoad {
        public Rejected {
            problems = List.copyOf(problems);
            if (problems.isEmpty()) {
                throw new IllegalArgumentException("a rejection must carry at least one problem");
            }
        }
    }
}
