package io.aasm.ports.backend;

import io.aasm.ports.capability.DecisionTiming;
import io.aasm.ports.capability.DescendantCoverage;
import java.util.Objects;

/** What a degraded requirement still achieves. */
public sealed interface AchievedControl {
    record ObservedOnly(DecisionTiming timing, DescendantCoverage descendants) implements AchievedControl {
        public ObservedOnly {
            Objects.requireNonNull(timing);
            Objects.requireNonNull(descendants);
        }
    }

    record Nothing() implements AchievedControl {
    }
}
