package io.aasm.ports.report;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.Objects;
import java.util.Optional;

/** One reason the launch was refused; {@code domain} is empty for launch-wide reasons. */
public record RefusalEntry(Optional<CapabilityDomain> domain, String reason, String detail) {
    public RefusalEntry {
        Objects.requireNonNull(domain);
        Objects.requireNonNull(reason);
        Objects.requireNonNull(detail);
    }
}
