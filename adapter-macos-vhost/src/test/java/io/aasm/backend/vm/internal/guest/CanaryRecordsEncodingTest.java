package io.aasm.backend.vm.internal.guest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The canary records of the plan (protocol version 3): the mask with every domain's bit, and each asked canary's
 * target in its own record, which the agent requires with its bit (plan.c refuses one without the other).
 */
class CanaryRecordsEncodingTest {
    private static final GuestPlan PLAN = new GuestPlan("/bin/true", List.of("true"), Map.of(), "/", 0, 0, List.of(),
            List.of(), List.of(new GuestPlan.Rlimit(7, 64, 64)), OptionalLong.empty(), OptionalLong.empty(), false,
            List.of(), List.of());
    private static final CanaryTargets TARGETS = new CanaryTargets(Optional.of(CanaryTargets.Call.of("mkdir", "mkdirat")),
            Optional.of(new GuestPlan.Rlimit(7, 64, 64)), CanaryTargets.UNREACHABLE_RESOLVER, Set.of());

    @Test
    void eachAskedCanaryCarriesItsTarget() {
        CanaryPlan c = new CanaryPlan(EnumSet.of(CapabilityDomain.SYSCALL, CapabilityDomain.NAME_RESOLUTION,
                CapabilityDomain.CREDENTIAL, CapabilityDomain.RESOURCE), "0123456789abcdef", TARGETS);
        Map<Integer, byte[]> r = records(PlanEncoder.encode(PLAN, new byte[32], Instant.EPOCH, Optional.of(c)));
        assertEquals(16 | 32 | 64 | 128, ByteBuffer.wrap(r.get(0x70)).getInt());
        // candidate names, u8 length each: the guest calls the first its architecture has (protocol version 4)
        assertArrayEquals("\u0005mkdir\u0007mkdirat".getBytes(java.nio.charset.StandardCharsets.US_ASCII), r.get(0x71));
        assertArrayEquals(ByteBuffer.allocate(12).putInt(7).putLong(64).array(), r.get(0x72));
        assertArrayEquals(new byte[] {(byte) 198, 18, 0, 53, 0, 53}, r.get(0x73));
    }

    @Test
    void noTargetRecordWithoutItsCanary() {
        CanaryPlan c = new CanaryPlan(EnumSet.of(CapabilityDomain.CREDENTIAL), "0123456789abcdef", TARGETS);
        Map<Integer, byte[]> r = records(PlanEncoder.encode(PLAN, new byte[32], Instant.EPOCH, Optional.of(c)));
        assertEquals(64, ByteBuffer.wrap(r.get(0x70)).getInt());
        assertFalse(r.containsKey(0x71) || r.containsKey(0x72) || r.containsKey(0x73), r.keySet().toString());
    }

    @Test
    void aCanaryWithoutATargetIsNotPlanned() {
        assertThrows(IllegalArgumentException.class, () -> new CanaryPlan(Set.of(CapabilityDomain.SYSCALL),
                "0123456789abcdef"));
        assertThrows(IllegalArgumentException.class, () -> new CanaryPlan(Set.of(CapabilityDomain.RESOURCE),
                "0123456789abcdef"));
        assertThrows(IllegalArgumentException.class, () -> new CanaryPlan(Set.of(CapabilityDomain.IPC),
                "0123456789abcdef", TARGETS));
    }

    @Test
    void thePlanSpeaksVersionFour() {
        // version 4: seccomp programs and the syscall canary's calls by name, compiled in the guest; the shares'
        // transport and tag
        byte[] p = PlanEncoder.encode(PLAN, new byte[32], Instant.EPOCH);
        assertEquals("AAVP", new String(p, 0, 4, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(4, ByteBuffer.wrap(p, 4, 2).getShort());
        assertEquals(4, FrameType.VERSION);
        assertTrue(CanaryPlan.SUPPORTED.containsAll(EnumSet.of(CapabilityDomain.SYSCALL,
                CapabilityDomain.NAME_RESOLUTION, CapabilityDomain.CREDENTIAL, CapabilityDomain.RESOURCE)));
    }

    /** The records by type (the last of a type wins; the canary records are never repeated). */
    private static Map<Integer, byte[]> records(byte[] plan) {
        Map<Integer, byte[]> out = new LinkedHashMap<>();
        ByteBuffer b = ByteBuffer.wrap(plan, 6, plan.length - 6);
        while (b.hasRemaining()) {
            int type = b.getShort() & 0xffff;
            byte[] payload = new byte[b.getInt()];
            b.get(payload);
            out.put(type, payload);
        }
        return out;
    }
}
