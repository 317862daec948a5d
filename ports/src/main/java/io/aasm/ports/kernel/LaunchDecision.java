package io.aasm.ports.kernel;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.policy.PolicyProblem;
import io.aasm.ports.report.IsolationReport;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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

    /**
     * A negotiated plan on a selected backend. {@code notRunnable} is set when the program itself could
     * not be resolved (not found, not executable): launching then fails with that kind, before anything runs.
     */
    record Confined(EnforcementPlan plan, IsolationReport report, Optional<ExitDisposition.NotStarted> notRunnable)
            implements LaunchDecision {
        public Confined {
            Objects.requireNonNull(plan);
            Objects.requireNonNull(report);
            Objects.requireNonNull(notRunnable);
        }
    }

    /**
     * {@code --isolation none}: runs {@code spec} without a boundary and says so (NO BOUNDARY ESTABLISHED);
     * {@code notRunnable} as for {@link Confined}.
     */
    record Unconfined(IsolationReport report, ExecutionSpec spec, Optional<ExitDisposition.NotStarted> notRunnable)
            implements LaunchDecision {
        public Unconfined {
            Objects.requireNonNull(report);
            Objects.requireNonNull(spec);
            Objects.requireNonNull(notRunnable);
        }
    }
}
