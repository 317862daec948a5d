package io.aasm.backend.sandlock.internal.harden;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A two-pass assembler for classic BPF seccomp programs: jumps name labels, resolved to forward
 * offsets; the result is {@code struct sock_filter[]} in the host's (little-endian) byte order.
 */
final class Bpf {
    static final int LD_W_ABS = 0x20;
    static final int JEQ = 0x15;
    static final int JGE = 0x35;
    static final int JSET = 0x45;
    static final int RET = 0x06;

    /** seccomp_data offsets: nr, arch, then the low 32 bits of each 64-bit argument (little-endian). */
    static final int OFF_NR = 0;
    static final int OFF_ARCH = 4;
    static final int OFF_ARG0 = 16;
    static final int OFF_ARG1 = 24;

    private record Insn(int code, String jt, String jf, int k) {
    }

    private final List<Insn> insns = new ArrayList<>();
    private final Map<String, Integer> labels = new HashMap<>();

    void ld(int offset) {
        insns.add(new Insn(LD_W_ABS, null, null, offset));
    }

    /** Jump to {@code jt} when the accumulator equals {@code k}, else to {@code jf} (null: next instruction). */
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
        if (labels.putIfAbsent(name, insns.size()) != null) {
            throw new IllegalStateException("label defined twice: " + name);
        }
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
        Integer to = labels.get(label);
        if (to == null) {
            throw new IllegalStateException("undefined label " + label);
        }
        int delta = to - at - 1;
        if (delta < 0 || delta > 255) {
            throw new IllegalStateException("jump to " + label + " out of range: " + delta);
        }
        return (byte) delta;
    }
}
