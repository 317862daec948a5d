package io.aasm.backend.sandlock.internal.harden;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * aasm's own seccomp filter for the program of a sandlock launch, installed by the guard's {@code exec}
 * shim after sandlock's setup and before the program (so sandlock's supervisor is never under it). It closes
 * what sandlock 0.8.6 leaves open around its boundary:
 * <ul>
 * <li>always: a call numbered from {@link #FIRST_UNREVIEWED} on (a newer kernel's, or the x32 ABI) fails
 * with ENOSYS, so no call this adapter never reviewed is allowed by default; {@code clone3} fails with
 * ENOSYS (its flags are in memory seccomp cannot read, so a namespace could be made through it; libc falls
 * back to {@code clone}); {@code clone} with a namespace flag, {@code ioctl} TIOCSTI/TIOCLINUX (keystrokes
 * into a terminal) and {@code fanotify_init} (watching a filesystem) fail with EPERM; another architecture's
 * calls kill the process;</li>
 * <li>with filesystem reads stated: {@code inotify_add_watch} fails with EPERM: Landlock does not check
 * watches, which would report names and events of folders outside the read grants.</li>
 * </ul>
 */
public final class ProgramFilter {
    /** One above the last call reviewed for this filter (futex_requeue, 456, Linux 6.7), on both architectures. */
    public static final int FIRST_UNREVIEWED = 457;
    static final int CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000
            | 0x20000000 | 0x40000000;
    static final int TIOCSTI = 0x5412;
    static final int TIOCLINUX = 0x541C;

    static final int RET_KILL_PROCESS = 0x80000000;
    static final int RET_ALLOW = 0x7fff0000;
    static final int RET_ERRNO = 0x00050000;
    static final int EPERM = 1;
    static final int ENOSYS = 38;

    /** What the filter covers beyond its fixed part, from what the policy states. */
    public record Concerns(boolean watching) {
    }

    /** The syscall numbers the filter names, per architecture. */
    record Numbers(int auditArch, int ioctl, int cloneNr, int clone3, int fanotifyInit, int inotifyAddWatch) {
        static Optional<Numbers> of(String arch) {
            return switch (arch) {
                case "x86_64" -> Optional.of(new Numbers(0xC000003E, 16, 56, 435, 300, 254));
                case "aarch64" -> Optional.of(new Numbers(0xC00000B7, 29, 220, 435, 262, 27));
                default -> Optional.empty();
            };
        }
    }

    private ProgramFilter() {
    }

    /** This JVM's architecture in the guard's naming, e.g. {@code x86_64}. */
    public static String hostArch() {
        String a = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return a.equals("amd64") ? "x86_64" : a.equals("arm64") ? "aarch64" : a;
    }

    /** The program's filter for {@code arch}; empty on an architecture this adapter has no numbers for. */
    public static Optional<byte[]> build(String arch, Concerns c) {
        return Numbers.of(arch).map(n -> assemble(n, c));
    }

    private static byte[] assemble(Numbers n, Concerns c) {
        Bpf a = new Bpf();
        a.ld(Bpf.OFF_ARCH);
        a.jeq(n.auditArch(), null, "kill");
        a.ld(Bpf.OFF_NR);
        a.jge(FIRST_UNREVIEWED, "enosys", null);
        a.jeq(n.clone3(), "enosys", null);
        a.jeq(n.cloneNr(), "clone", null);
        a.jeq(n.ioctl(), "ioctl", null);
        a.jeq(n.fanotifyInit(), "eperm", null);
        if (c.watching()) {
            a.jeq(n.inotifyAddWatch(), "eperm", null);
        }
        a.ret(RET_ALLOW);
        a.label("clone");
        a.ld(Bpf.OFF_ARG0); // clone(flags, ...): every namespace flag is in the low 32 bits
        a.jset(CLONE_NAMESPACE_FLAGS, "eperm", null);
        a.ret(RET_ALLOW);
        a.label("ioctl");
        a.ld(Bpf.OFF_ARG1); // the command is an unsigned int: the kernel looks at the low 32 bits only
        a.jeq(TIOCSTI, "eperm", null);
        a.jeq(TIOCLINUX, "eperm", null);
        a.ret(RET_ALLOW);
        a.label("eperm");
        a.ret(RET_ERRNO | EPERM);
        a.label("enosys");
        a.ret(RET_ERRNO | ENOSYS);
        a.label("kill");
        a.ret(RET_KILL_PROCESS);
        return a.assemble();
    }

    /** Lower-case hex, as the shim takes it on its command line. */
    public static String hex(byte[] program) {
        return HexFormat.of().formatHex(program);
    }

    /** What the filter does, one sentence each (for the setup evidence and the plan's steps). */
    public static List<String> describe(Concerns c) {
        List<String> out = new ArrayList<>(List.of("calls numbered " + FIRST_UNREVIEWED + " and above (kernels after"
                + " 6.7, x32) and clone3 fail with ENOSYS; clone with a namespace flag, ioctl TIOCSTI/TIOCLINUX and"
                + " fanotify_init fail with EPERM"));
        if (c.watching()) {
            out.add("inotify_add_watch fails with EPERM");
        }
        return out;
    }
}
