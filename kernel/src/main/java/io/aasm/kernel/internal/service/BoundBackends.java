package io.aasm.kernel.internal.service;

import io.aasm.kernel.internal.selection.Guarded;
import io.aasm.kernel.internal.selection.InstalledBackend;
import io.aasm.ports.backend.BackendId;
import io.aasm.ports.backend.BackendIdentity;
import io.aasm.ports.backend.BackendRanking;
import io.aasm.ports.backend.IsolationBackend;
import java.util.List;
import java.util.Map;

/**
 * The bound backends under the id and ranking their service properties give, and the view of them that
 * decisions, launches and listings use. A bind or unbind replaces the view; a call works on the one it read.
 */
final class BoundBackends {
    private final LazyServices<IsolationBackend> services = new LazyServices<>();
    private volatile List<InstalledBackend> installed = List.of();

    synchronized void add(LazyService<IsolationBackend> lazy, Map<String, Object> props) {
        services.add(idOf(lazy, props), rankingOf(props), lazy);
        refresh();
    }

    /** Drops the backend these (unbind) properties name. */
    synchronized void remove(Map<String, Object> props) {
        services.remove(props);
        refresh();
    }

    /** Drops an already active backend (tests, embedding). */
    synchronized void remove(IsolationBackend active) {
        services.remove(active);
        refresh();
    }

    List<InstalledBackend> installed() {
        return installed;
    }

    private void refresh() {
        installed = services.entries().stream()
                .map(e -> new InstalledBackend(e.name(), e.ranking(), e.service())).toList();
    }

    /** From the service property; a backend without it must be asked, which activates it. */
    private static String idOf(LazyService<IsolationBackend> backend, Map<String, Object> props) {
        Object id = props.get(BackendId.NAME);
        if (id != null) {
            return id.toString();
        }
        return Guarded.call("identity()", () -> backend.get().identity()) instanceof Guarded.Ok<BackendIdentity> ok
                ? ok.value().id() : "unidentified-backend";
    }

    private static int rankingOf(Map<String, Object> props) {
        Object r = props.get(BackendRanking.NAME);
        if (r instanceof Number n) {
            return n.intValue();
        }
        try {
            return r == null ? 0 : Integer.parseInt(r.toString().trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
