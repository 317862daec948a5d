package io.aasm.backend.vm.internal.lower;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Seccomp programs for the guest, compiled on the host with libseccomp (by name, as the native backend
 * does) and exported as BPF the agent installs last, right before execve. The guest is x86_64 like the
 * host, so the host's syscall table is the guest's.
 */
public final class Seccomp {
    static final int ALLOW = 0x7fff0000;
    static final int EPERM = 0x00050000 | 1;
    static final int ENOSYS = 0x00050000 | 38;
    private static final int CMP_EQ = 4;
    private static final int CMP_MASKED_EQ = 7;

    interface Lib extends Library {
        Pointer seccomp_init(int defAction);

        int seccomp_rule_add_array(Pointer ctx, int action, int syscall, int argCnt, Pointer args);

        int seccomp_syscall_resolve_name(String name);

        int seccomp_export_bpf(Pointer ctx, int fd);

        void seccomp_release(Pointer ctx);
    }

    interface LibC extends Library {
        int memfd_create(String name, int flags);

        long lseek(int fd, long offset, int whence);

        long read(int fd, byte[] buf, long count);

        int close(int fd);
    }

    /** One rule: the call, the action, and optional argument comparisons (arg, op, mask-or-value, value). */
    record Rule(String name, int action, long[][] args) {
        static Rule plain(String name, int action) {
            return new Rule(name, action, new long[0][]);
        }
    }

    private final Lib lib;
    private final LibC libc;

    private Seccomp(Lib lib, LibC libc) {
        this.lib = lib;
        this.libc = libc;
    }

    /** libseccomp on this host, or why not. */
    static Optional<Seccomp> load(StringBuilder why) {
        try {
            return Optional.of(new Seccomp(Native.load("seccomp", Lib.class), Native.load("c", LibC.class)));
        } catch (LinkageError | RuntimeException e) {
            why.append("libseccomp.so.2 cannot be loaded (apt-get install libseccomp2): ").append(e.getMessage());
            return Optional.empty();
        }
    }

    /** The call's number, or -1 when libseccomp does not know it. */
    int number(String name) {
        int n = lib.seccomp_syscall_resolve_name(name);
        return n < 0 ? -1 : n;
    }

    /** A program with this default action and these rules; a rule naming an unknown call is an IOException. */
    byte[] compile(int defaultAction, List<Rule> rules, boolean skipUnknown) throws IOException {
        Pointer ctx = lib.seccomp_init(defaultAction);
        if (ctx == null) {
            throw new IOException("seccomp_init failed");
        }
        try {
            for (Rule r : rules) {
                int nr = number(r.name());
                if (nr < 0) {
                    if (skipUnknown) {
                        continue;
                    }
                    throw new IOException("unknown system call '" + r.name() + "'");
                }
                Memory args = null;
                if (r.args().length > 0) {
                    args = new Memory(24L * r.args().length);
                    args.clear();
                    for (int i = 0; i < r.args().length; i++) {
                        long[] a = r.args()[i];
                        args.setInt(24L * i, (int) a[0]);
                        args.setInt(24L * i + 4, (int) a[1]);
                        args.setLong(24L * i + 8, a[2]);
                        args.setLong(24L * i + 16, a[3]);
                    }
                }
                int rc = lib.seccomp_rule_add_array(ctx, r.action(), nr, r.args().length, args);
                if (rc < 0) {
                    throw new IOException("libseccomp refused the rule for " + r.name() + " (" + rc + ")");
                }
            }
            return export(ctx);
        } finally {
            lib.seccomp_release(ctx);
        }
    }

    private byte[] export(Pointer ctx) throws IOException {
        int fd = libc.memfd_create("aasm-seccomp", 1 /* MFD_CLOEXEC */);
        if (fd < 0) {
            throw new IOException("memfd_create failed");
        }
        try {
            if (lib.seccomp_export_bpf(ctx, fd) < 0) {
                throw new IOException("seccomp_export_bpf failed");
            }
            long size = libc.lseek(fd, 0, 1 /* SEEK_CUR */);
            libc.lseek(fd, 0, 0);
            byte[] out = new byte[(int) size];
            long got = 0;
            while (got < size) {
                byte[] chunk = new byte[(int) (size - got)];
                long n = libc.read(fd, chunk, chunk.length);
                if (n <= 0) {
                    throw new IOException("reading the exported program failed");
                }
                System.arraycopy(chunk, 0, out, (int) got, (int) n);
                got += n;
            }
            return out;
        } finally {
            libc.close(fd);
        }
    }

    static long[] eq(int arg, long value) {
        return new long[] {arg, CMP_EQ, value, 0};
    }

    static long[] maskedEq(int arg, long mask, long value) {
        return new long[] {arg, CMP_MASKED_EQ, mask, value};
    }

    static List<Rule> named(List<String> names, int action) {
        List<Rule> out = new ArrayList<>();
        names.forEach(n -> out.add(Rule.plain(n, action)));
        return out;
    }
}
