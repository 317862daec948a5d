package io.aasm.backend.vm.internal.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aasm.ports.capability.CapabilityDomain;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The host's canary records as the guest agent's own decoder reads them ({@link PlanCheck}). A canary bit without
 * its target record, a target without its bit, or a malformed target refuses the plan before anything is applied.
 * The syscall canary's first candidate is unknown everywhere: the agent takes the first its architecture has.
 */
class PlanDecodeTest {
    private static final GuestPlan PLAN = new GuestPlan("/bin/true", List.of("true"), Map.of(), "/", 0, 0, List.of(),
            List.of(), List.of(new GuestPlan.Rlimit(7, 64, 64)), OptionalLong.empty(), OptionalLong.empty(), false,
            List.of(), List.of());
    private static final CanaryTargets TARGETS = new CanaryTargets(Optional.of(CanaryTargets.Call.of("nosuchcall",
            "mkdir", "mkdirat")), Optional.of(new GuestPlan.Rlimit(7, 64, 64)), CanaryTargets.UNREACHABLE_RESOLVER, Set.of());

    @BeforeAll
    static void compile() throws Exception {
        PlanCheck.compile();
    }

    @Test
    void everyTargetArrivesWithItsCanary() throws Exception {
        CanaryPlan c = new CanaryPlan(EnumSet.of(CapabilityDomain.SYSCALL, CapabilityDomain.NAME_RESOLUTION,
                CapabilityDomain.CREDENTIAL, CapabilityDomain.RESOURCE), "0123456789abcdef", TARGETS);
        assertEquals("ok mask=240 nonce=0123456789abcdef syscall=mkdir/83 rlimit=7/64 names=c6120035:53",
                decode(encode(Optional.of(c))));
    }

    @Test
    void aBitWithoutItsTargetOrATargetWithoutItsBitIsRefused() throws Exception {
        byte[] none = encode(Optional.empty());
        assertEquals("refused bad_plan:the syscall canary and its call come together",
                decode(append(none, canary(16))));
        assertEquals("refused bad_plan:the syscall canary and its call come together",
                decode(append(none, record(0x71, new byte[] {5, 'm', 'k', 'd', 'i', 'r'}))));
        assertEquals("refused bad_plan:the resource canary and its ceiling come together",
                decode(append(none, canary(128))));
        assertEquals("refused bad_plan:the name canary and its address come together",
                decode(append(none, canary(32))));
        assertEquals("ok mask=64 nonce=0123456789abcdef", decode(append(none, canary(64))));
    }

    @Test
    void malformedTargetsAndUnknownBitsAreRefused() throws Exception {
        byte[] none = encode(Optional.empty());
        assertEquals("refused bad_plan:record 0x72 malformed, repeated or unknown",
                decode(append(none, canary(128), record(0x72, new byte[8]))));
        assertEquals("refused bad_plan:record 0x73 malformed, repeated or unknown",
                decode(append(none, canary(32), record(0x73, new byte[] {127, 0, 0, 1, 0, 0}))));
        assertEquals("refused bad_plan:record 0x70 malformed, repeated or unknown", decode(append(none, canary(256))));
        byte[] v2 = encode(Optional.empty());
        v2[5] = 2;
        assertEquals("refused bad_plan:version", decode(v2));
    }

    private static byte[] encode(Optional<CanaryPlan> c) {
        return PlanEncoder.encode(PLAN, new byte[32], Instant.EPOCH, c);
    }

    private static byte[] canary(int mask) {
        return record(0x70, ByteBuffer.allocate(20).putInt(mask).put("0123456789abcdef".getBytes(
                StandardCharsets.US_ASCII)).array());
    }

    static byte[] record(int type, byte[] payload) {
        return ByteBuffer.allocate(6 + payload.length).putShort((short) type).putInt(payload.length).put(payload)
                .array();
    }

    static byte[] append(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }

    static String decode(byte[] plan) throws Exception {
        return PlanCheck.decode(plan);
    }
}
