package io.aasm.backend.vm.internal.guest;

import java.util.Map;
import java.util.Objects;

/** How the guest answered a plan. */
public sealed interface StartOutcome {
    /** The program's execve succeeded; {@code fields} holds the agent's timings, authority and descriptors. */
    record Started(Map<String, String> fields) implements StartOutcome {
        public Started {
            fields = Map.copyOf(fields);
        }
    }

    /** Nothing was executed: the agent could not install the plan exactly ({@code token} as in PROTOCOL.md). */
    record Refused(String token, String detail) implements StartOutcome {
        public Refused {
            Objects.requireNonNull(token);
            Objects.requireNonNull(detail);
        }
    }

    /** The boundary was in place but execve failed with this errno. */
    record ExecFailed(int errno) implements StartOutcome {
    }

    /** The guest or its hypervisor went away before answering. */
    record Lost(String why) implements StartOutcome {
        public Lost {
            Objects.requireNonNull(why);
        }
    }
}
