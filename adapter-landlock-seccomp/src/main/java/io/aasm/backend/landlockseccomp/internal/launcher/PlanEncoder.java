package io.aasm.backend.landlockseccomp.internal.launcher;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;

/** Encodes a {@link PlanMessage} into the launcher's wire format (PROTOCOL.md, version 2). */
public final class PlanEncoder {
    static final byte[] MAGIC = {'A', 'A', 'L', 'P'};
    static final int HEADER_BYTES = 12;

    private PlanEncoder() {
    }

    public static byte[] encode(PlanMessage plan) {
        // Stable sort: the launcher requires non-decreasing types and keeps order within a type.
        List<PlanRecord> sorted = plan.records().stream().sorted(Comparator.comparingInt(PlanRecord::type)).toList();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (PlanRecord r : sorted) {
            byte[] payload = payload(r);
            body.writeBytes(le(6).putShort((short) r.type()).putInt(payload.length).array());
            body.writeBytes(payload);
        }
        byte[] b = body.toByteArray();
        ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + b.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).putShort((short) PlanMessage.VERSION).putShort((short) 0).putInt(b.length).put(b);
        return out.array();
    }

    static byte[] payload(PlanRecord r) {
        // Java 17: no pattern switch; an instanceof chain over the sealed family.
        if (r instanceof PlanRecord.Program p) return utf8(p.path());
        if (r instanceof PlanRecord.Arg a) return utf8(a.value());
        if (r instanceof PlanRecord.Env e) return utf8(e.entry());
        if (r instanceof PlanRecord.Cwd c) return utf8(c.path());
        if (r instanceof PlanRecord.Namespaces n) return le(4).putInt(n.mask()).array();
        if (r instanceof PlanRecord.UserMap m) {
            return le(16).putInt(m.insideUid()).putInt(m.outsideUid()).putInt(m.insideGid()).putInt(m.outsideGid())
                    .array();
        }
        if (r instanceof PlanRecord.ViewOp v) {
            byte[] a = utf8(v.a()), b = utf8(v.b());
            return le(12 + a.length + b.length).putInt(v.op()).putInt(v.flags()).putInt(a.length).put(a).put(b)
                    .array();
        }
        if (r instanceof PlanRecord.ProgramPid p) return le(4).putInt(p.pid()).array();
        if (r instanceof PlanRecord.Decisions d) return le(4).putInt(d.filter()).array();
        if (r instanceof PlanRecord.CanaryRlimit c) return le(12).putInt(c.resource()).putLong(c.hard()).array();
        if (r instanceof PlanRecord.Canary c) {
            byte[] read = utf8(c.readPath()), write = utf8(c.writePath());
            return le(16 + read.length + write.length).putInt(c.kinds()).putInt(c.port()).putInt(c.syscall())
                    .putInt(read.length).put(read).put(write).array();
        }
        if (r instanceof PlanRecord.CgroupJoin c) return utf8(c.procsFile());
        if (r instanceof PlanRecord.Rlimit l) return le(20).putInt(l.resource()).putLong(l.soft()).putLong(l.hard()).array();
        if (r instanceof PlanRecord.LandlockRuleset l) {
            return le(24).putLong(l.handledFs()).putLong(l.handledNet()).putLong(l.scoped()).array();
        }
        if (r instanceof PlanRecord.LandlockPath l) {
            byte[] p = utf8(l.path());
            return le(8 + p.length).putLong(l.allowed()).put(p).array();
        }
        if (r instanceof PlanRecord.LandlockPort l) return le(16).putLong(l.allowed()).putLong(l.port()).array();
        if (r instanceof PlanRecord.Seccomp s) {
            byte[] f = s.filter();
            return le(4 + f.length).putInt(s.flags()).put(f).array();
        }
        if (r instanceof PlanRecord.RelayTcpPort p) return le(2).putShort((short) p.port()).array();
        if (r instanceof PlanRecord.RelayUdpPort p) return le(2).putShort((short) p.port()).array();
        if (r instanceof PlanRecord.RelayProxy p) {
            byte[] pre = p.preamble(), path = utf8(p.socket());
            return le(4 + pre.length + path.length).putShort((short) p.port()).putShort((short) pre.length).put(pre)
                    .put(path).array();
        }
        if (r instanceof PlanRecord.KeepFd k) return le(4).putInt(k.fd()).array();
        if (r instanceof PlanRecord.Signals s) return le(12).putInt(s.target().code()).putLong(s.mask()).array();
        if (r instanceof PlanRecord.Raw raw) return raw.payload();
        // MountProc, LoopbackUp, LoopbackInject, NoNewPrivs, Terminal, DropCaps carry no payload.
        return new byte[0];
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
}
