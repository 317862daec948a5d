package io.aasm.backend.vm.internal.lower;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Seccomp programs for the guest, by call name (PROTOCOL.md, "Seccomp by name"): the host never resolves a name
 * to a number, because the numbers are the guest's architecture's, not the host's (an arm64 guest on an
 * Apple-silicon Mac, where there is no libseccomp at all). The guest agent compiles each description with its
 * own statically linked libseccomp, which also writes the audit-architecture check, as the host's did before.
 */
public final class Seccomp {
    static final int ALLOW = 0x7fff0000;
    static final int EPERM = 0x00050000 | 1;
    static final int ENOSYS = 0x00050000 | 38;
    private static final int CMP_EQ = 4;
    private static final int CMP_MASKED_EQ = 7;
    private static final int OPTIONAL = 1;
    private static final Pattern NAME = Pattern.compile("[a-z0-9_]{1,63}");

    /**
     * One rule: the call, the action, whether the guest may skip it where its architecture has no such call
     * (never for a policy's own names), and argument comparisons (arg, op, mask-or-value, value).
     */
    record Rule(String name, int action, boolean optional, long[][] args) {
        static Rule plain(String name, int action) {
            return new Rule(name, action, false, new long[0][]);
        }

        Rule optionalHere() {
            return new Rule(name, action, true, args);
        }
    }

    private Seccomp() {
    }

    /** Whether the name can be a system call's at all; whether the guest's architecture has it, only the guest knows. */
    static boolean wellFormed(String name) {
        return NAME.matcher(name).matches();
    }

    /** u32 default action, u16 rule count, then per rule u32 action, u8 flags, u8 argc, u8 name length, name, and
     *  argc comparisons of u8 arg, u8 op, u64 a, u64 b (big-endian). */
    static byte[] describe(int defaultAction, List<Rule> rules) {
        if (rules.size() > 0xffff) {
            throw new IllegalArgumentException("more than 65535 rules");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ByteBuffer.allocate(6).putInt(defaultAction).putShort((short) rules.size()).array());
        for (Rule r : rules) {
            if (!wellFormed(r.name()) || r.args().length > 6) {
                throw new IllegalArgumentException("not a system call rule: " + r.name());
            }
            byte[] name = r.name().getBytes(StandardCharsets.US_ASCII);
            out.writeBytes(ByteBuffer.allocate(7).putInt(r.action()).put((byte) (r.optional() ? OPTIONAL : 0))
                    .put((byte) r.args().length).put((byte) name.length).array());
            out.writeBytes(name);
            for (long[] a : r.args()) {
                out.writeBytes(ByteBuffer.allocate(18).put((byte) a[0]).put((byte) a[1]).putLong(a[2]).putLong(a[3])
                        .array());
            }
        }
        return out.toByteArray();
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
