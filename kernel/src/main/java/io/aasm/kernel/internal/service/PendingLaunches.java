package io.aasm.kernel.internal.service;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.LaunchFailureKind;
import io.aasm.ports.kernel.LaunchDecision;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * What decide() knew that a decision value does not carry (an unconfined decision has no spec,
 * and a program that failed to resolve must fail launch() with its own kind). Keyed by the
 * decision's identity, weakly, so decisions that are never launched cost nothing.
 */
final class PendingLaunches {

    record Pending(ExecutionSpec spec, Optional<Failure> failure) {
    }

    record Failure(LaunchFailureKind kind, String detail) {
    }

    private record Entry(WeakReference<LaunchDecision> decision, Pending pending) {
    }

    private final List<Entry> entries = new ArrayList<>();

    synchronized void put(LaunchDecision decision, Pending pending) {
        purge();
        entries.add(new Entry(new WeakReference<>(decision), pending));
    }

    synchronized Optional<Pending> get(LaunchDecision decision) {
        for (Entry e : entries) {
            if (e.decision().get() == decision) {
                return Optional.of(e.pending());
            }
        }
        return Optional.empty();
    }

    private void purge() {
        for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
            if (it.next().decision().get() == null) {
                it.remove();
            }
        }
    }
}
