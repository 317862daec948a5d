package io.aasm.backend.landlockseccomp.internal.lower;

import java.util.List;
import java.util.Objects;

/** How one requirement would be installed on this host, or why its scope cannot be expressed. */
public sealed interface Route {
    record Supported(String mechanism, List<Need> needs, List<String> limitations) implements Route {
        public Supported {
            Objects.requireNonNull(mechanism);
            needs = List.copyOf(needs);
            limitations = List.copyOf(limitations);
        }
    }

    record Unsupported(String reason) implements Route {
        public Unsupported {
            Objects.requireNonNull(reason);
        }
    }
}
