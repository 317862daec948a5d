package io.aasm.backend.landlockseccomp.internal.seccomp;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.aasm.backend.landlockseccomp.internal.host.LibC;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/** Compiles a {@link FilterSpec} to classic BPF bytes with libseccomp; outcomes are values. */
public final class FilterCompiler {
    private static final int ARG_CMP_SIZE = 24;
    private static final int MFD_CLOEXEC = 1;

    /** The program bytes ({@code struct sock_filter[]}, 8 bytes each), or why none could be built. */
    public sealed interface Result {
        record Program(FilterSpec spec, byte[] bytes) implements Result {
            public Program {
                Objects.requireNonNull(spec);
                bytes = bytes.clone();
                if (bytes.length == 0 || bytes.length % 8 != 0) {
                    throw new IllegalArgumentException("a BPF program is a non-empty multiple of 8 bytes");
                }
            }

            public int instructions() {
                return bytes.length / 8;
            }
        }

        record Rejected(String reason) implements Result {
        }
    }

    private final Libseccomp lib;

    public FilterCompiler(Libseccomp lib) {
        this.lib = lib;
    }

    /** The syscall number on the native architecture, or empty when the name is unknown there. */
    public java.util.OptionalInt resolve(String name) {
        int nr = lib.seccomp_syscall_resolve_name(name);
        return nr == Libseccomp.NR_SCMP_ERROR ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(nr);
    }

    /**
     * One above the highest syscall number libseccomp knows on the native architecture: calls from there on
     * are a newer kernel's, which no name-based rule can cover (the baseline filter fails them).
     */
    public int firstUnknownNumber() {
        int highest = -1;
        for (int nr = 0; nr < 1024; nr++) {
            Pointer name = lib.seccomp_syscall_resolve_num_arch(0, nr);
            if (name != null) {
                highest = nr;
                com.sun.jna.Native.free(Pointer.nativeValue(name));
            }
        }
        return highest + 1;
    }

    public Result compile(FilterSpec spec) {
        for (FilterSpec.Rule r : spec.rules()) {
            if (resolve(r.syscall()).isEmpty()) {
                return new Result.Rejected("unknown syscall name '" + r.syscall() + "' (libseccomp knows no such "
                        + "call for this architecture); check the spelling, e.g. 'openat' not 'open_at'");
            }
        }
        Pointer ctx = lib.seccomp_init(spec.defaultAction().encode());
        if (ctx == null) {
            return new Result.Rejected("seccomp_init failed for " + spec.purpose());
        }
        try {
            // A call from another ABI (e.g. 32-bit int 0x80 on x86_64) kills the process.
            int rc = lib.seccomp_attr_set(ctx, Libseccomp.SCMP_FLTATR_ACT_BADARCH, Libseccomp.SCMP_ACT_KILL_PROCESS);
            if (rc != 0) {
                return new Result.Rejected("seccomp_attr_set(BADARCH) failed: " + rc);
            }
            for (FilterSpec.Rule r : spec.rules()) {
                if (r.action().equals(spec.defaultAction())) {
                    continue; // libseccomp rejects rules equal to the default action; they are redundant anyway
                }
                rc = addRule(ctx, r);
                if (rc != 0) {
                    return new Result.Rejected("seccomp_rule_add(" + r.syscall() + ") failed with " + rc
                            + " in " + spec.purpose());
                }
            }
            return export(ctx, spec);
        } finally {
            lib.seccomp_release(ctx);
        }
    }

    private int addRule(Pointer ctx, FilterSpec.Rule r) {
        int nr = resolve(r.syscall()).getAsInt();
        if (r.args().isEmpty()) {
            return lib.seccomp_rule_add_array(ctx, r.action().encode(), nr, 0, null);
        }
        try (Memory m = new Memory((long) ARG_CMP_SIZE * r.args().size())) {
            m.clear();
            for (int i = 0; i < r.args().size(); i++) {
                FilterSpec.ArgCmp c = r.args().get(i);
                long off = (long) i * ARG_CMP_SIZE;
                m.setInt(off, c.arg());
                m.setInt(off + 4, c.op().code);
                m.setLong(off + 8, c.a());
                m.setLong(off + 16, c.b());
            }
            return lib.seccomp_rule_add_array(ctx, r.action().encode(), nr, r.args().size(), m);
        }
    }

    private Result export(Pointer ctx, FilterSpec spec) {
        int fd = LibC.INSTANCE.memfd_create("aasm-seccomp", MFD_CLOEXEC);
        if (fd < 0) {
            return new Result.Rejected("memfd_create failed; cannot export the seccomp program");
        }
        try {
            int rc = lib.seccomp_export_bpf(ctx, fd);
            if (rc != 0) {
                return new Result.Rejected("seccomp_export_bpf failed with " + rc + " in " + spec.purpose());
            }
            // Reopening through /proc gives a fresh offset 0 on the same memory file.
            byte[] bytes = Files.readAllBytes(Path.of("/proc/self/fd/" + fd));
            return new Result.Program(spec, bytes);
        } catch (IOException e) {
            return new Result.Rejected("reading the exported seccomp program failed: " + e.getMessage());
        } finally {
            LibC.INSTANCE.close(fd);
        }
    }
}
