package io.aasm.ports.backend;

import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Environment names only, never values: what was removed from the child's environment, what was
 * delegated, and what ambient authority stayed (non-empty means not least authority).
 */
public record CredentialPosture(SortedSet<String> removed, SortedSet<String> delegated,
                                SortedSet<String> ambientUnremoved) {
    public CredentialPosture {
        removed = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(removed));
        delegated = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(delegated));
        ambientUnremoved = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(ambientUnremoved));
    }

    public static CredentialPosture none() {
        return new CredentialPosture(new TreeSet<>(), new TreeSet<>(), new TreeSet<>());
    }

    /** Names listed both as removed and as still present or delegated. */
    public List<String> contradictions() {
        TreeSet<String> out = new TreeSet<>();
        for (String n : removed) {
            if (delegated.contains(n) || ambientUnremoved.contains(n)) {
                out.add(n);
            }
        }
        return List.copyOf(out);
    }
}
