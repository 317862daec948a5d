package io.aasm.ports.capability;

import java.util.Objects;

/** Whether a backend can be used on this host at all. */
public sealed interface Availability {
    /** Usable; its domains are described by the capability reports. */
    record Available() implements Availability {
    }

    /** Not usable, with the exact reason and what to do about it. */
    record Unavailable(String reason) implements Availability {
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
