package io.aasm.backend.landlockseccomp.internal.seccomp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The kernel's seccomp action cache, as it decides it (kernel/seccomp.c, {@code seccomp_is_const_allow}, Linux
 * 5.11+): for each syscall number of the native architecture, a program is run with only the number and the
 * architecture known; when it reaches "allow" without reading anything else (an argument, the instruction
 * pointer) the call bypasses the program from then on. A call is served by the cache only when every stacked
 * program allows it that way. Only the instructions the kernel's emulator knows are followed; any other makes the
 * answer "not constant", as in the kernel.
 */
final class ActionCache {
    static final int AUDIT_ARCH_X86_64 = 0xC000003E;
    private static final int OFF_NR = 0;
    private static final int OFF_ARCH = 4;

    private ActionCache() {
    }

    /** Whether {@code program} (classic BPF bytes) allows {@code nr} on {@code arch} without looking at anything else. */
    static boolean constAllow(byte[] program, int arch, int nr) {
        ByteBuffer b = ByteBuffer.wrap(program).order(ByteOrder.LITTLE_ENDIAN);
        int n = program.length / 8;
        int pc = 0;
        int a = 0;
        while (pc < n) {
            int code = b.getShort(pc * 8) & 0xffff;
            int jt = b.get(pc * 8 + 2) & 0xff;
            int jf = b.get(pc * 8 + 3) & 0xff;
            int k = b.getInt(pc * 8 + 4);
            switch (code) {
                case 0x20 -> { // BPF_LD | BPF_W | BPF_ABS
                    if (k == OFF_NR) {
                        a = nr;
                    } else if (k == OFF_ARCH) {
                        a = arch;
                    } else {
                        return false; // an argument or the instruction pointer
                    }
                    pc++;
                }
                case 0x05 -> pc += 1 + k; // BPF_JMP | BPF_JA
                case 0x15 -> pc += 1 + (a == k ? jt : jf); // JEQ
                case 0x35 -> pc += 1 + (Integer.compareUnsigned(a, k) >= 0 ? jt : jf); // JGE
                case 0x25 -> pc += 1 + (Integer.compareUnsigned(a, k) > 0 ? jt : jf); // JGT
                case 0x45 -> pc += 1 + ((a & k) != 0 ? jt : jf); // JSET
                case 0x54 -> { // BPF_ALU | BPF_AND | BPF_K
                    a &= k;
                    pc++;
                }
                case 0x06 -> { // BPF_RET | BPF_K
                    return k == 0x7fff0000; // SECCOMP_RET_ALLOW
                }
                default -> {
                    return false;
                }
            }
        }
        return false;
    }
}
