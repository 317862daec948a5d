package io.aasm.ports.kernel;

import io.aasm.ports.plan.EnforcementPlan;
import io.aasm.ports.policy.PolicyProblem;
import io.aasm.ports.report.IsolationReport;
import java.util.List;
import java.util.Objects;

/**
 * The pre-launch decision. Every arm except {@link PolicyRejected} carries a {@code pre_launch}
 * report; only {@link Confined} and {@link Unconfined} may be launched.
 */
public sealed interface LaunchDecision {
    /** The policy could not be loaded; nothing may run. */
    record PolicyRejected(String origin, List<PolicyProblem> problems) implements LaunchDecision {
        public PolicyRejected {
            Objects.requireNonNull(origin);
            problems = List.copyOf(problems);
        }
    }

    /** A boundary was requested and cannot be established; every reason is in the report. */
    record Refused(IsolationReport report, String message) implements LaunchDecision {
        public Refused {
            Objects.requireNonNull(report);
            Objects.requireNonNull(message);
        }
    }

    /** A negotiated plan on a selected backend. */
    record Confined(EnforcementPlan plan, IsolationReport report) implements LaunchDecision {
        public Confined {
            Objects.requireNonNull(plan);
            Objects.requireNonNull(report);
        }
    }

    /** {@code --isolation none}: runs without a boundary and says so (NO BOUNDARY ESTABLISHED). */
    record Unconfined(IsolationReport report) implements LaunchDecision {
        public Unconfined {
            Objects.requireNonNull(report);
        }
    }
}
