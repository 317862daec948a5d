package io.aasm.ports.kernel;

import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.capability.BackendCapabilities;
import java.util.Objects;
import java.util.Optional;

/** An installed backend as the kernel sees it; {@code fault} is set when the backend threw. */
public record BackendStatus(String id, Optional<BackendIdentity> identity, Optional<BackendCapabilities> capabilities,
                            Optional<String> fault) {
    public BackendStatus {
        Objects.requireNonNull(id);
        Objects.requireNonNull(identity);
        Objects.requireNonNull(capabilities);
        Objects.requireNonNull(fault);
    }
}
