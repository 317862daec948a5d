package io.aasm.ports.kernel;

import io.aasm.ports.policy.PolicyLowering;
import io.aasm.ports.policy.PolicyProblem;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The result of checking a policy file: its lowering, or every problem found. */
public record PolicyCheck(String origin, Optional<PolicyLowering> lowering, List<PolicyProblem> problems) {
    public PolicyCheck {
        Objects.requireNonNull(origin);
        Objects.requireNonNull(lowering);
        problems = List.copyOf(problems);
        if (lowering.isPresent() == !problems.isEmpty()) {
            throw new IllegalArgumentException("a policy check has either a lowering or problems");
        }
    }

    public boolean valid() {
        return lowering.isPresent();
    }
}
