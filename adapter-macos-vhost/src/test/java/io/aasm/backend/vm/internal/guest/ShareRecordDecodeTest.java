package io.aasm.backend.vm.internal.guest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The share records of protocol 4 as the guest agent's own decoder (plan.c, through src/test/c/plan_check.c)
 * reads them: each share names its transport and tag, so one guest image mounts 9p under QEMU's templates and
 * virtiofs under Virtualization.framework. A transport the agent does not know, a malformed tag, or a plan of an
 * older protocol is refused before anything is mounted.
 */
class ShareRecordDecodeTest {
    private static final GuestPlan PLAN = new GuestPlan("/bin/true", List.of("true"), Map.of(), "/", 0, 0,
            List.of(new GuestPlan.Share(0, true), new GuestPlan.Share(3, false)), List.of(), List.of(),
            OptionalLong.empty(), OptionalLong.empty(), false, List.of(), List.of());

    @BeforeAll
    static void compile() throws Exception {
        PlanDecodeTest.compile();
    }

    @Test
    void eachShareCarriesItsTransportAndTag() throws Exception {
        assertEquals("ok mask=0 nonce= share=0/ro/2/s0 share=3/rw/2/s3",
                PlanDecodeTest.decode(encode(ShareTransport.VIRTIOFS)));
        assertEquals("ok mask=0 nonce= share=0/ro/1/s0 share=3/rw/1/s3",
                PlanDecodeTest.decode(encode(ShareTransport.NINE_P)));
    }

    @Test
    void anUnknownTransportIsRefusedByName() throws Exception {
        byte[] plan = PlanDecodeTest.append(encode(ShareTransport.VIRTIOFS), share(5, 7, "s5"));
        assertEquals("refused bad_plan:share 5 names transport 7, which this agent does not know (1 9p, 2 virtiofs)",
                PlanDecodeTest.decode(plan));
        // control: the same record with a known transport
        assertEquals("ok mask=0 nonce= share=0/ro/2/s0 share=3/rw/2/s3 share=5/rw/2/s5", PlanDecodeTest.decode(
                PlanDecodeTest.append(encode(ShareTransport.VIRTIOFS), share(5, 2, "s5"))));
    }

    @Test
    void aTagThatIsNoPlainNameOrAVersion3ShareIsRefused() throws Exception {
        byte[] base = encode(ShareTransport.VIRTIOFS);
        assertEquals("refused bad_plan:record 0x20 malformed, repeated or unknown",
                PlanDecodeTest.decode(PlanDecodeTest.append(base, share(5, 2, "s,5"))));
        assertEquals("refused bad_plan:record 0x20 malformed, repeated or unknown",
                PlanDecodeTest.decode(PlanDecodeTest.append(base, share(5, 2, "x".repeat(37)))));
        // version 3's two-byte share record
        assertEquals("refused bad_plan:record 0x20 malformed, repeated or unknown",
                PlanDecodeTest.decode(PlanDecodeTest.append(base, PlanDecodeTest.record(0x20, new byte[] {5, 0}))));
        byte[] v3 = encode(ShareTransport.VIRTIOFS);
        v3[5] = 3;
        assertEquals("refused bad_plan:version", PlanDecodeTest.decode(v3));
    }

    private static byte[] encode(ShareTransport t) {
        return PlanEncoder.encode(PLAN, new byte[32], Instant.EPOCH, Optional.empty(), OptionalInt.empty(), t);
    }

    private static byte[] share(int slot, int transport, String tag) {
        return PlanDecodeTest.record(0x20, PlanDecodeTest.append(new byte[] {(byte) slot, 0, (byte) transport},
                tag.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }
}
