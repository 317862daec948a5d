package io.aasm.backend.vm.internal.guest;

import java.util.Objects;

/** One step of building the program's view in the guest, applied in plan order (parents before children). */
public sealed interface ViewOp {
    /** Every operation names the absolute path in the view it makes. */
    String target();

    /** A folder or file of share {@code slot} ({@code subpath} relative to the share, "" for all of it). */
    record Bind(int slot, boolean readOnly, String subpath, String target) implements ViewOp {
        public Bind {
            Objects.requireNonNull(subpath);
            absolute(target);
            if (subpath.startsWith("/") || subpath.contains("..")) {
                throw new IllegalArgumentException("a subpath is relative and stays inside its share: " + subpath);
            }
        }
    }

    /** A fresh, private tmpfs (a policy's private folder). */
    record Tmpfs(String target) implements ViewOp {
        public Tmpfs {
            absolute(target);
        }
    }

    /** A symlink recreated as the host has it (a grant reached through one). */
    record Symlink(String target, String content) implements ViewOp {
        public Symlink {
            absolute(target);
            Objects.requireNonNull(content);
        }
    }

    record Dir(String target) implements ViewOp {
        public Dir {
            absolute(target);
        }
    }

    /** A generated read-only file (the pinned host table, for example). */
    record File(String target, byte[] content) implements ViewOp {
        public File {
            absolute(target);
            content = content.clone();
        }
    }

    /** The guest's own procfs: only the guest's processes exist in it. */
    record Proc(String target) implements ViewOp {
        public Proc {
            absolute(target);
        }
    }

    /** The guest's own sysfs, read-only. */
    record Sysfs(String target) implements ViewOp {
        public Sysfs {
            absolute(target);
        }
    }

    private static void absolute(String p) {
        if (p == null || !p.startsWith("/") || p.contains("\0")) {
            throw new IllegalArgumentException("a view path is absolute: " + p);
        }
    }
}
