package io.aasm.ports.capability;

import java.util.List;
import java.util.Objects;

/** How completely a backend supports a domain. Partial support names its limitations. */
public sealed interface SupportLevel {
    /** Wire token: {@code full}, {@code partial} or {@code unsupported}. */
    String token();

    /** Every action of the domain is covered. */
    record Full() implements SupportLevel {
        @Override
        public String token() {
            return "full";
        }
    }

    /** Covered with named limitations (each a sentence a user can act on). */
    record Partial(List<String> limitations) implements SupportLevel {
        public Partial {
            limitations = List.copyOf(limitations);
            if (limitations.isEmpty()) {
                throw new IllegalArgumentException("partial support must name at least one limitation");
            }
        }

        @Override
        public String token() {
            return "partial";
        }
    }

    /** Not supported at all, with the reason. */
    record Unsupported(String reason) implements SupportLevel {
        public Unsupported {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String token() {
            return "unsupported";
        }
    }
}
