package io.aasm.ports.policy;

import java.util.Objects;

/** A place in a policy file; line and column are 1-based (0 when unknown). */
public record SourceLocation(String file, int line, int column) {
    public SourceLocation {
        Objects.requireNonNull(file, "file");
    }

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
