package io.aasm.kernel.internal.selection;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The auto-walk order: the configured candidates first (installed or not, so a missing one is
 * reported), then every other installed backend by ranking (highest first), then by id.
 */
public record WalkOrder(List<String> configured) {

    public WalkOrder {
        configured = List.copyOf(new LinkedHashSet<>(configured));
    }

    /** Parses a comma list; blanks are ignored. */
    public static WalkOrder parse(String commaList) {
        List<String> ids = new ArrayList<>();
        if (commaList != null) {
            Arrays.stream(commaList.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(ids::add);
        }
        return new WalkOrder(ids);
    }

    /** The property, when set and non-blank, overrides the configured list. */
    public static WalkOrder of(Optional<String> property, String[] configured) {
        if (property.isPresent() && !property.get().isBlank()) {
            return parse(property.get());
        }
        return new WalkOrder(configured == null ? List.of() : Arrays.asList(configured));
    }

    public List<String> candidates(List<InstalledBackend> installed) {
        LinkedHashSet<String> out = new LinkedHashSet<>(configured);
        installed.stream()
                .sorted(Comparator.comparingInt(InstalledBackend::ranking).reversed()
                        .thenComparing(InstalledBackend::id))
                .forEach(b -> out.add(b.id()));
        return List.copyOf(out);
    }
}
