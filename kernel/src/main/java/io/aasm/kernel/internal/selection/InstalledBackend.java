package io.aasm.kernel.internal.selection;

import io.aasm.ports.backend.IsolationBackend;
import java.util.Objects;

/** A backend service with the properties the kernel ranks it by (read without calling it). */
public record InstalledBackend(String id, int ranking, IsolationBackend backend) {
    public InstalledBackend {
        Objects.requireNonNull(id);
        Objects.requireNonNull(backend);
    }
}
