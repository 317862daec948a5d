package io.aasm.transport.proxy.internal.admission;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What {@link Admission} decided for one destination: the addresses to dial and why, or the refusal. */
public sealed interface Verdict {
    /** {@code addresses}: to dial in order (never empty); {@code grant}: the grant that admitted them, as written. */
    record Admitted(List<InetAddress> addresses, String grant) implements Verdict {
        public Admitted {
            addresses = List.copyOf(addresses);
            if (addresses.isEmpty()) {
                throw new IllegalArgumentException("nothing to dial");
            }
            Objects.requireNonNull(grant);
        }
    }

    /** {@code resolved}: the addresses a resolver answered, when the refusal is about them. */
    record Refused(String reason, Optional<String> resolved) implements Verdict {
        public Refused {
            Objects.requireNonNull(reason);
            Objects.requireNonNull(resolved);
        }
    }
}
