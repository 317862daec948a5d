package io.aasm.kernel.internal.selection;

import io.aasm.ports.backend.IsolationBackend;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A backend service with the properties the kernel ranks it by (read without calling it). The service
 * itself is fetched through {@code source} only when a call needs it: under DS that activates the backend's
 * component, which for a real backend means detecting the host and loading its launcher. A launch pinned
 * to one backend, or an auto walk that stops at its first candidate, so never activates the others.
 * {@code source} throws when the backend cannot be had (its activation failed): every caller reaches it
 * inside a guarded call, so that is a fault of this backend, never a capability.
 */
public final class InstalledBackend {
    private final String id;
    private final int ranking;
    private final Supplier<IsolationBackend> source;

    public InstalledBackend(String id, int ranking, Supplier<IsolationBackend> source) {
        this.id = Objects.requireNonNull(id);
        this.ranking = ranking;
        this.source = Objects.requireNonNull(source);
    }

    /** An already active backend (tests, embedding). */
    public InstalledBackend(String id, int ranking, IsolationBackend backend) {
        this(id, ranking, constant(Objects.requireNonNull(backend)));
    }

    private static Supplier<IsolationBackend> constant(IsolationBackend backend) {
        return () -> backend;
    }

    public String id() {
        return id;
    }

    public int ranking() {
        return ranking;
    }

    /** The backend, activated on first use; throws if it cannot be activated. */
    public IsolationBackend backend() {
        IsolationBackend b = source.get();
        if (b == null) {
            throw new IllegalStateException("the `" + id + "` backend could not be activated");
        }
        return b;
    }

    @Override
    public String toString() {
        return "InstalledBackend[" + id + ", ranking " + ranking + "]";
    }
}
