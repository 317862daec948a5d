package io.aasm.ports.conformance;

import java.util.List;
import java.util.Objects;

/**
 * One finished run: {@code passed} is true only when no cell fails (every cell truthful: no escape
 * under a claim of prevention, no untruthful report, no inconclusive control under a claim, no suite
 * defect). {@code table} is the human summary; {@code resultsDirectory} holds the JSON and Markdown
 * results ({@code aasm.conformance.results/1}).
 */
public record ConformanceRun(boolean passed, List<String> failingCells, String table, String resultsDirectory) {
    public ConformanceRun {
        failingCells = List.copyOf(failingCells);
        Objects.requireNonNull(table);
        Objects.requireNonNull(resultsDirectory);
        if (passed != failingCells.isEmpty()) {
            throw new IllegalArgumentException("a run passes exactly when no cell fails");
        }
    }
}
