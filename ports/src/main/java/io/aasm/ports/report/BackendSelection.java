package io.aasm.ports.report;

import java.util.List;
import java.util.Objects;

/** How the backend was selected, with every candidate considered (in walk order). */
public record BackendSelection(SelectionMode mode, List<ConsideredBackend> considered) {
    public BackendSelection {
        Objects.requireNonNull(mode);
        considered = List.copyOf(considered);
    }
}
