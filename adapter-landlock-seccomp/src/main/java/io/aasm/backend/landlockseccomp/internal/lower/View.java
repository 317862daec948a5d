package io.aasm.backend.landlockseccomp.internal.lower;

import java.util.List;
import java.util.Objects;

/**
 * The program's filesystem view, decided: a root (an empty read-only tmpfs, or the host's root read-write
 * or read-only) and the mounts made on it in order (VIEW_OP records, PROTOCOL.md). {@code generated}
 * names files the supervisor writes for the launch (hosts, resolv.conf, nsswitch.conf); a bind whose source
 * is {@code generated:<name>} takes that file.
 */
public record View(Base base, List<Op> ops, List<String> described) {
    public View {
        Objects.requireNonNull(base);
        ops = List.copyOf(ops);
        described = List.copyOf(described);
    }

    public static final String GENERATED = "generated:";

    /** The wire codes are the launcher's (plan.h). */
    public enum Base {
        EMPTY(0), HOST_READ_WRITE(1), HOST_READ_ONLY(2);

        private final int code;

        Base(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    public enum Kind {
        BIND(2), TMPFS(3), DEVPTS(4), SYMLINK(5), DIR(6);

        private final int code;

        Kind(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    public static final int READ_ONLY = 1;
    public static final int NO_DEV = 2;
    public static final int NO_EXEC = 4;

    /** One mount or entry: {@code a} is the source, tmpfs options or symlink content; {@code b} the target. */
    public record Op(Kind kind, int flags, String a, String b) {
        public Op {
            Objects.requireNonNull(kind);
            Objects.requireNonNull(a);
            Objects.requireNonNull(b);
        }
    }
}
