package io.aasm.conformance.internal.run;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.report.IsolationReport;
import java.util.Objects;

/** One launch of a scenario's action under one policy on one backend. */
public sealed interface Trial {
    /** The policy was rejected: the suite's own defect. */
    record Rejected(String problems) implements Trial {
        public Rejected {
            Objects.requireNonNull(problems);
        }
    }

    /**
     * The kernel refused the launch before anything started: the backend said it cannot enforce the
     * policy as stated. Nothing ran, so the action is absent, but the boundary prevented nothing.
     */
    record Refused(String why) implements Trial {
        public Refused {
            Objects.requireNonNull(why);
        }
    }

    /** Nothing ran: the backend failed before the program started. */
    record NotLaunched(String why) implements Trial {
        public NotLaunched {
            Objects.requireNonNull(why);
        }
    }

    /** The launch never ended, even after an immediate termination request. */
    record Hung(String why) implements Trial {
        public Hung {
            Objects.requireNonNull(why);
        }
    }

    /** The program ran and the tree was torn down. {@code diagnostics} is what the action printed. */
    record Ran(IsolationReport pre, IsolationReport post, ExitDisposition exit, String diagnostics,
               io.aasm.conformance.internal.catalogue.Effect effect) implements Trial {
        public Ran {
            Objects.requireNonNull(pre);
            Objects.requireNonNull(post);
            Objects.requireNonNull(exit);
            Objects.requireNonNull(diagnostics);
            Objects.requireNonNull(effect);
        }
    }
}
