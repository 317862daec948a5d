package io.aasm.backend.container.internal.lower;

import java.util.Objects;

/** One mount of a container's view, by its path inside the container ({@code target}). */
public sealed interface Mount {
    String target();

    /** A host folder or file (its real path) at {@code target}, recursively, read-only or read-write. */
    record Bind(String source, String target, boolean readOnly) implements Mount {
        public Bind {
            Objects.requireNonNull(source);
            Objects.requireNonNull(target);
        }
    }

    /** A fresh tmpfs, private to the launch and discarded with it. */
    record Tmpfs(String target, boolean readOnly) implements Mount {
        public Tmpfs {
            Objects.requireNonNull(target);
        }
    }

    /** An empty read-only file over a socket (or file) the program must not reach. */
    record MaskFile(String target) implements Mount {
        public MaskFile {
            Objects.requireNonNull(target);
        }
    }

    /** A file the backend generated for this launch (e.g. {@code hosts}), read-only at {@code target}. */
    record Generated(String name, String target) implements Mount {
        public Generated {
            Objects.requireNonNull(name);
            Objects.requireNonNull(target);
        }
    }
}
