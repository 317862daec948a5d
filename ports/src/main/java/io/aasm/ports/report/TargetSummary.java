package io.aasm.ports.report;

import java.util.Objects;

/** The launched program and its argument count (arguments themselves are not repeated in reports). */
public record TargetSummary(String program, int argumentCount) {
    public TargetSummary {
        Objects.requireNonNull(program);
    }
}
