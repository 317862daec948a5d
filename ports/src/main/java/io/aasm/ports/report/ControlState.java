package io.aasm.ports.report;

import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import io.aasm.ports.backend.AchievedControl;
import io.aasm.ports.backend.RefusalReason;
import io.aasm.ports.policy.RequirementIntent;
import java.util.Objects;

/** What the boundary will do or did for one domain. */
public sealed interface ControlState {
    String token();

    record Prevention(DecisionTiming timing, DescendantCoverage descendants) implements ControlState {
        public Prevention {
            Objects.requireNonNull(timing);
            Objects.requireNonNull(descendants);
        }

        @Override
        public String token() {
            return "prevention";
        }
    }

    record ObserveOnly(DecisionTiming timing, DescendantCoverage descendants) implements ControlState {
        public ObserveOnly {
            Objects.requireNonNull(timing);
            Objects.requireNonNull(descendants);
        }

        @Override
        public String token() {
            return "observe_only";
        }
    }

    /** Planned and achieved are separate fields, never merged. */
    record Degraded(RequirementIntent planned, AchievedControl achieved, RefusalReason reason, String detail)
            implements ControlState {
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

    record Unsupported(RefusalReason reason, String detail) implements ControlState {
        public Unsupported {
            Objects.requireNonNull(reason);
            Objects.requireNonNull(detail);
        }

        @Override
        public String token() {
            return "unsupported";
        }
    }

    record Unmeasured(UnmeasuredReason reason, String detail) implements ControlState {
        public Unmeasured {
            Objects.requireNonNull(reason);
            Objects.requireNonNull(detail);
        }

        @Override
        public String token() {
            return "unmeasured";
        }
    }
}
