package io.aasm.backend.landlockseccomp.internal.seccomp;

import io.aasm.backend.landlockseccomp.internal.host.Arch;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fail-closed part of every launch's seccomp baseline, assembled by hand because libseccomp cannot say
 * it: a syscall number above every number libseccomp knows for this architecture (a newer kernel's call,
 * or the x32 ABI) fails with ENOSYS instead of being allowed; {@code clone} with any namespace flag fails
 * with EPERM and {@code clone3} (whose flags live in memory seccomp cannot read) with ENOSYS, so libc falls
 * back to clone; {@code ioctl} TIOCSTI and TIOCLINUX (keystroke injection into a terminal) fail with EPERM.
 * Installed as its own program next to the libseccomp one: the kernel applies the strictest answer.
 */
public final class BaselineFilter {
    /** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET. */
    public static final long CLONE_NAMESPACE_FLAGS = 0x00020000L | 0x02000000L | 0x04000000L | 0x08000000L
            | 0x10000000L | 0x20000000L | 0x40000000L;
    public static final int TIOCSTI = 0x5412;
    public static final int TIOCLINUX = 0x541C;

    private static final int LD_W_ABS = 0x20;
    private static final int JEQ = 0x15;
    private static final int JGE = 0x35;
    private static final int JSET = 0x45;
    private static final int RET = 0x06;
    private static final int RET_KILL_PROCESS = 0x80000000;
    private static final int RET_ALLOW = 0x7fff0000;
    private static final int RET_ERRNO = 0x00050000;
    private static final int EPERM = 1;
    private static final int ENOSYS = 38;
    private static final int OFF_NR = 0;
    private static final int OFF_ARCH = 4;
    private static final int OFF_ARG0 = 16;
    private static final int OFF_ARG1 = 24;

    private BaselineFilter() {
    }

    /** Syscall numbers of the calls this filter inspects. */
    record Numbers(int auditArch, int ioctl, int cloneNr, int clone3) {
        static Numbers of(Arch arch) {
            return switch (arch) {
                case X86_64 -> new Numbers(0xC000003E, 16, 56, 435);
                case AARCH64 -> new Numbers(0xC00000B7, 29, 220, 435);
            };
        }
    }

    /** The program for {@code arch}; every number at or above {@code firstUnknown} fails with ENOSYS. */
    public static byte[] build(Arch arch, int firstUnknown) {
        Numbers n = Numbers.of(arch);
        Asm a = new Asm();
        a.ld(OFF_ARCH);
        a.jeq(n.auditArch(), null, "kill");
        a.ld(OFF_NR);
        a.jge(firstUnknown, "enosys", null);
        a.jeq(n.ioctl(), "ioctl", null);
        a.jeq(n.cloneNr(), "clone", null);
        a.jeq(n.clone3(), "enosys", null);
        a.ret(RET_ALLOW);
        a.label("ioctl");
        a.ld(OFF_ARG1); // the command is an unsigned int: the kernel looks at the low 32 bits only
        a.jeq(TIOCSTI, "eperm", null);
        a.jeq(TIOCLINUX, "eperm", null);
        a.ret(RET_ALLOW);
        a.label("clone");
        a.ld(OFF_ARG0); // clone(flags, ...): every namespace flag is in the low 32 bits
        a.jset((int) CLONE_NAMESPACE_FLAGS, "eperm", null);
        a.ret(RET_ALLOW);
        a.label("eperm");
        a.ret(RET_ERRNO | EPERM);
        a.label("enosys");
        a.ret(RET_ERRNO | ENOSYS);
        a.label("kill");
        a.ret(RET_KILL_PROCESS);
        return a.assemble();
    }

    /** A tiny two-pass assembler: jumps name labels, resolved to forward offsets. */
    private static final class Asm {
        private record Insn(int code, String jt, String jf, int k) {
        }

        private final List<Insn> insns = new ArrayList<>();
        private final Map<String, Integer> labels = new HashMap<>();

        void ld(int offset) {
            insns.add(new Insn(LD_W_ABS, null, null, offset));
        }

        void jeq(int k, String jt, String jf) {
            insns.add(new Insn(JEQ, jt, jf, k));
        }

        void jge(int k, String jt, String jf) {
            insns.add(new Insn(JGE, jt, jf, k));
        }

        void jset(int k, String jt, String jf) {
            insns.add(new Insn(JSET, jt, jf, k));
        }

        void ret(int k) {
            insns.add(new Insn(RET, null, null, k));
        }

        void label(String name) {
            labels.put(name, insns.size());
        }

        byte[] assemble() {
            ByteBuffer out = ByteBuffer.allocate(insns.size() * 8).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < insns.size(); i++) {
                Insn in = insns.get(i);
                out.putShort((short) in.code()).put(offset(i, in.jt())).put(offset(i, in.jf())).putInt(in.k());
            }
            return out.array();
        }

        private byte offset(int at, String label) {
            if (label == null) {
                return 0;
            }
            int delta = labels.get(label) - at - 1;
            if (delta < 0 || delta > 255) {
                throw new IllegalStateException("jump to " + label + " out of range: " + delta);
            }
            return (byte) delta;
        }
    }
}
