package io.aasm.backend.vm.internal.lower;

import java.util.List;
import java.util.Objects;

/** How this backend covers one domain's scope: with a mechanism and its limitations, or not at all. */
public sealed interface Route {
    record Supported(String mechanism, List<String> limitations, List<String> needs) implements Route {
        public Supported {
            Objects.requireNonNull(mechanism);
            limitations = List.copyOf(limitations);
            needs = List.copyOf(needs);
        }
    }

    record Unsupported(String reason) implements Route {
        public Unsupported {
            Objects.requireNonNull(reason);
        }
    }
}
