package io.aasm.ports.backend;

import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.policy.RequirementIntent;
import java.util.Objects;

/** The negotiated outcome of one requirement against one backend. */
public sealed interface RequirementOutcome {
    String token();

    /** The backend will prevent, with this timing and descendant coverage. */
    record Enforced(DecisionTiming timing, DescendantCoverage descendants) implements RequirementOutcome {
        public Enforced {
            Objects.requireNonNull(timing);
            Objects.requireNonNull(descendants);
        }

        @Override
        public String token() {
            return "enforced";
        }
    }

    /** The backend will observe (the requirement asked only for observation). */
    record Observed(DecisionTiming timing, DescendantCoverage descendants) implements RequirementOutcome {
        public Observed {
            Objects.requireNonNull(timing);
            Objects.requireNonNull(descendants);
        }

        @Override
        public String token() {
            return "observed";
        }
    }

    /** Posture allowed proceeding below the request; planned and achieved are kept apart. */
    record Degraded(RequirementIntent planned, AchievedControl achieved, RefusalReason reason, String detail)
            implements RequirementOutcome {
        public Degraded {
            Objects.requireNonNull(planned);
            Objects.requireNonNull(achieved);
            Objects.requireNonNull(reason);
            Objects.requireNonNull(detail);
        }

        @Override
        public String token() {
            return "degraded";
        }
    }

    /** Not met; for an optional requirement the launch proceeds and this is recorded. */
    record Unmet(RefusalReason reason, String detail) implements RequirementOutcome {
        public Unmet {
            Objects.requireNonNull(reason);
            Objects.requireNonNull(detail);
        }

        @Override
        public String token() {
            return "unmet";
        }
    }
}
