package io.aasm.backend.vm.internal.guest;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/**
 * The plan frame's payload (PROTOCOL.md, "Plan records"): "AAVP", u16 version, then records
 * {@code u16 type | u32 length | payload}, big-endian. The seed and the clock are per launch: every clone of a
 * template starts with the same random state and the clock it was saved with.
 */
public final class PlanEncoder {
    static final int PROGRAM = 0x01, ARG = 0x02, ENV = 0x03, CWD = 0x04, IDS = 0x05, SEED = 0x10, CLOCK = 0x11,
            SHARE = 0x20, BIND = 0x21, TMPFS = 0x22, SYMLINK = 0x23, DIR = 0x24, FILE = 0x25, PROC = 0x26, SYSFS = 0x27,
            RLIMIT = 0x30, CGROUP = 0x31, LANDLOCK = 0x40, SECCOMP = 0x50, FLAGS = 0x60, CANARY = 0x70, CANARY_SYSCALL = 0x71, CANARY_RLIMIT = 0x72,
            CANARY_NAMES = 0x73, PROXY = 0x80;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private PlanEncoder() {
        out.writeBytes("AAVP".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(new byte[] {0, (byte) FrameType.VERSION});
    }

    public static byte[] encode(GuestPlan p, byte[] seed, Instant now) {
        return encode(p, seed, now, java.util.Optional.empty());
    }

    /** {@code canaries}: the launch's canaries, when it asks for any. */
    public static byte[] encode(GuestPlan p, byte[] seed, Instant now, java.util.Optional<CanaryPlan> canaries) {
        return encode(p, seed, now, canaries, java.util.OptionalInt.empty());
    }

    /** {@code proxyPort}: where the agent listens on the guest's loopback and relays to the host (R_PROXY). */
    public static byte[] encode(GuestPlan p, byte[] seed, Instant now, java.util.Optional<CanaryPlan> canaries,
                                java.util.OptionalInt proxyPort) {
        return encode(p, seed, now, canaries, proxyPort, ShareTransport.NINE_P);
    }

    /** {@code transport}: how the machine the plan goes to carries its shares (every share the same way). */
    public static byte[] encode(GuestPlan p, byte[] seed, Instant now, java.util.Optional<CanaryPlan> canaries,
                                java.util.OptionalInt proxyPort, ShareTransport transport) {
        if (seed.length < 32 || seed.length > 256) {
            throw new IllegalArgumentException("the seed is 32 to 256 bytes");
        }
        PlanEncoder e = new PlanEncoder();
        e.text(PROGRAM, p.program());
        p.argv().forEach(a -> e.text(ARG, a));
        for (Map.Entry<String, String> v : p.environment().entrySet()) {
            e.text(ENV, v.getKey() + "=" + v.getValue());
        }
        e.text(CWD, p.workingDirectory());
        e.record(IDS, ByteBuffer.allocate(8).putInt(p.uid()).putInt(p.gid()).array());
        e.record(SEED, seed);
        e.record(CLOCK, ByteBuffer.allocate(12).putLong(now.getEpochSecond()).putInt(now.getNano()).array());
        p.shares().forEach(s -> e.record(SHARE, concat(new byte[] {(byte) s.slot(), (byte) (s.readOnly() ? 1 : 0),
            (byte) transport.code}, bytes(ShareTransport.tag(s.slot())))));
        p.view().forEach(e::op);
        for (GuestPlan.Rlimit r : p.rlimits()) {
            e.record(RLIMIT, ByteBuffer.allocate(20).putInt(r.resource()).putLong(r.soft()).putLong(r.hard()).array());
        }
        p.memoryMax().ifPresent(v -> e.record(CGROUP, ByteBuffer.allocate(9).put((byte) 1).putLong(v).array()));
        p.pidsMax().ifPresent(v -> e.record(CGROUP, ByteBuffer.allocate(9).put((byte) 2).putLong(v).array()));
        for (GuestPlan.LandlockRule r : p.rules()) {
            e.record(LANDLOCK, concat(new byte[] {(byte) r.access().code}, bytes(r.path())));
        }
        p.seccomp().forEach(b -> e.record(SECCOMP, b));
        e.record(FLAGS, ByteBuffer.allocate(4).putInt(p.landlock() ? 1 : 0).array());
        canaries.filter(c -> c.mask() != 0).ifPresent(e::canaries);
        proxyPort.ifPresent(port -> e.record(PROXY, new byte[] {(byte) (port >>> 8), (byte) port}));
        return e.out.toByteArray();
    }

    /** R_CANARY, then each asked canary's target (version 3): the agent refuses a canary without its target. */
    private void canaries(CanaryPlan c) {
        record(CANARY, concat(ByteBuffer.allocate(4).putInt(c.mask()).array(), bytes(c.nonce())));
        if (c.domains().contains(io.aasm.ports.capability.CapabilityDomain.SYSCALL)) {
            ByteArrayOutputStream names = new ByteArrayOutputStream();
            for (String n : c.targets().syscall().orElseThrow().names()) {
                byte[] b = bytes(n);
                names.write(b.length);
                names.writeBytes(b);
            }
            record(CANARY_SYSCALL, names.toByteArray());
        }
        if (c.domains().contains(io.aasm.ports.capability.CapabilityDomain.RESOURCE)) {
            GuestPlan.Rlimit r = c.targets().ceiling().orElseThrow();
            record(CANARY_RLIMIT, ByteBuffer.allocate(12).putInt(r.resource()).putLong(r.hard()).array());
        }
        if (c.domains().contains(io.aasm.ports.capability.CapabilityDomain.NAME_RESOLUTION)) {
            CanaryTargets.Resolver n = c.targets().resolver();
            record(CANARY_NAMES, ByteBuffer.allocate(6).putInt(n.address()).putShort((short) n.port()).array());
        }
    }

    private void op(ViewOp op) {
        if (op instanceof ViewOp.Bind b) {
            byte[] sub = bytes(b.subpath());
            record(BIND, concat(new byte[] {(byte) b.slot(), (byte) (b.readOnly() ? 1 : 0), (byte) (sub.length >>> 8),
                (byte) sub.length}, sub, bytes(b.target())));
        } else if (op instanceof ViewOp.Symlink s) {
            record(SYMLINK, pair(s.target(), bytes(s.content())));
        } else if (op instanceof ViewOp.File f) {
            record(FILE, pair(f.target(), f.content()));
        } else {
            int type = op instanceof ViewOp.Tmpfs ? TMPFS : op instanceof ViewOp.Dir ? DIR
                    : op instanceof ViewOp.Proc ? PROC : SYSFS;
            text(type, op.target());
        }
    }

    private static byte[] pair(String first, byte[] rest) {
        byte[] a = bytes(first);
        return concat(new byte[] {(byte) (a.length >>> 8), (byte) a.length}, a, rest);
    }

    private void text(int type, String s) {
        record(type, bytes(s));
    }

    private void record(int type, byte[] payload) {
        out.writeBytes(ByteBuffer.allocate(6).putShort((short) type).putInt(payload.length).array());
        out.writeBytes(payload);
    }

    private static byte[] bytes(String s) {
        if (s.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a plan string holds no NUL byte");
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }
}
