package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.kernel.internal.selection.InstalledBackend;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.capability.BackendCapabilities;
import io.aasm.ports.kernel.BackendStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code aasm backends} and {@code aasm probe} show of one backend: its identity and capabilities as the
 * backend itself reports them, each call guarded, so a backend that throws is listed with its fault.
 */
final class BackendStatuses {
    private BackendStatuses() {
    }

    static BackendStatus of(InstalledBackend b, boolean refresh) {
        // listing a backend activates it: its capabilities are what its own probes measured, never assumed
        Guarded<BackendIdentity> identity = Guarded.call("identity()", () -> b.backend().identity());
        Guarded<BackendCapabilities> caps = refresh
                ? Guarded.call("refreshCapabilities()", () -> b.backend().refreshCapabilities())
                : Guarded.call("capabilities()", () -> b.backend().capabilities());
        List<String> faults = new ArrayList<>();
        if (identity instanceof Guarded.Fault<?> f) {
            faults.add(f.message());
        }
        if (caps instanceof Guarded.Fault<?> f) {
            faults.add(f.message());
        }
        return new BackendStatus(b.id(),
                identity instanceof Guarded.Ok<BackendIdentity> ok ? Optional.of(ok.value()) : Optional.empty(),
                caps instanceof Guarded.Ok<BackendCapabilities> ok ? Optional.of(ok.value()) : Optional.empty(),
                faults.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", faults)));
    }
}
