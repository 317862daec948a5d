package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class PlanEncoderTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void encodesGoldenBytesSortedByTypeKeepingArgOrder() {
        PlanMessage plan = PlanMessage.builder()
                .keepFds(1)
                .namespaces(EnumSet.of(PlanRecord.Namespace.PID))
                .argv("true")
                .program("/bin/true")
                .env("A", "1")
                .argv("x")
                .build();
        byte[] expected = hex("41414c50 0300 0000 3d000000"
                + " 0100 09000000 2f62696e2f74727565" // PROGRAM /bin/true
                + " 0200 04000000 74727565" // ARG true
                + " 0200 01000000 78" // ARG x (order within a type kept)
                + " 0300 03000000 413d31" // ENV A=1
                + " 1000 04000000 02000000" // NAMESPACES PID
                + " 6000 04000000 01000000"); // KEEP_FD 1
        assertArrayEquals(expected, PlanEncoder.encode(plan));
    }

    @Test
    void loopbackInjectIsAnEmptyRecordOfType0x18() {
        assertArrayEquals(new byte[0], PlanEncoder.payload(new PlanRecord.LoopbackInject()));
        assertEquals(0x18, new PlanRecord.LoopbackInject().type());
    }

    @Test
    void encodesFixedSizeRecordsLittleEndian() {
        assertArrayEquals(hex("09000000 0000100000000000 ffffffffffffffff"),
                PlanEncoder.payload(new PlanRecord.Rlimit(PlanRecord.Rlimit.AS, 1L << 20, PlanRecord.Rlimit.INFINITY)));
        assertArrayEquals(hex("0400000000000000 2f7573722f6c6962"),
                PlanEncoder.payload(new PlanRecord.LandlockPath(4, "/usr/lib")));
        assertArrayEquals(hex("0200000000000000 901f000000000000"),
                PlanEncoder.payload(new PlanRecord.LandlockPort(2, 8080)));
        assertArrayEquals(hex("ffff000000000000 0300000000000000 0300000000000000"),
                PlanEncoder.payload(new PlanRecord.LandlockRuleset(0xffff, 3, 3)));
        assertArrayEquals(hex("02000000 01000000 06000000 2f686f737473 2f6574632f686f737473"),
                PlanEncoder.payload(new PlanRecord.ViewOp(PlanRecord.ViewOp.BIND, 1, "/hosts", "/etc/hosts")));
        assertArrayEquals(hex("e8030000"), PlanEncoder.payload(new PlanRecord.ProgramPid(1000)));
        assertArrayEquals(hex("00000000 e8030000 00000000 e8030000"),
                PlanEncoder.payload(new PlanRecord.UserMap(0, 1000, 0, 1000)));
        assertArrayEquals(hex("01000000 0040000000000000"),
                PlanEncoder.payload(PlanRecord.Signals.of(PlanRecord.SignalTarget.GROUP, 14)));
        assertArrayEquals(hex("02000000 0600000000000000"),
                PlanEncoder.payload(new PlanRecord.Seccomp(2, hex("0600000000000000"))));
        assertEquals(0, PlanEncoder.payload(new PlanRecord.NoNewPrivs()).length);
        assertEquals(0x1f, new PlanRecord.Namespaces(EnumSet.allOf(PlanRecord.Namespace.class)).mask());
    }
}
