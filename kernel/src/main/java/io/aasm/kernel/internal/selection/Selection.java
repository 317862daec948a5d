package io.aasm.kernel.internal.selection;

import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.report.BackendSelection;
import io.aasm.ports.report.RefusalEntry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The outcome of backend selection: a chosen backend with its plan, or a refusal with every reason. */
public sealed interface Selection {

    BackendSelection record();

    record Chosen(Candidate candidate, EnforcementPlan plan, BackendSelection record) implements Selection {
        public Chosen {
            Objects.requireNonNull(candidate);
            Objects.requireNonNull(plan);
            Objects.requireNonNull(record);
        }
    }

    /**
     * Nothing can be launched. {@code backend} is the single backend that was asked (pinned, or the
     * only one the walk got an answer from) whose per-domain verdicts belong in the report.
     */
    record NotChosen(String message, List<RefusalEntry> launchWide, Optional<Candidate> backend,
                     BackendSelection record) implements Selection {
        public NotChosen {
            Objects.requireNonNull(message);
            launchWide = List.copyOf(launchWide);
            Objects.requireNonNull(backend);
            Objects.requireNonNull(record);
        }
    }
}
