package io.aasm.ports.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.report.fixtures.HostileReports;
import org.junit.jupiter.api.Test;

class UntrustedTextTest {
    @Test
    void collapsesEachRunOfUnsafeCharactersToOneSpace() {
        assertEquals("a b c d", UntrustedText.clean("a\r\n\tb\u001b\u0007c\u0085d"));
        assertEquals("x y z", UntrustedText.clean("x\u2028y\u2029z"));
    }

    @Test
    void removesInvisibleFormatCharactersIncludingSupplementaryOnes() {
        assertEquals("ab c d", UntrustedText.clean("ab\u202Ec\u200Bd"));
        assertEquals("tag ", UntrustedText.clean("tag\uDB40\uDC01"));
    }

    @Test
    void keepsOrdinaryTextIncludingNonAscii() {
        assertEquals("NO — café /tmp/ü 🙂", UntrustedText.clean("NO — café /tmp/ü 🙂"));
    }

    /** The escape introducers (ESC, C1 CSI) go; what is left of a sequence is inert printable text. */
    @Test
    void terminalEscapeSequencesLoseTheirIntroducers() {
        String cleaned = UntrustedText.clean(HostileReports.tainted("label"));
        assertEquals("label [2J ]0;owned 31m end", cleaned);
        assertTrue(cleaned.codePoints().allMatch(cp -> cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp < 0xa0)),
                cleaned);
    }

    @Test
    void unpairedSurrogatesAndEmptyInputDoNotThrow() {
        assertEquals("", UntrustedText.clean(""));
        assertEquals("\uD800x", UntrustedText.clean("\uD800x"));
    }
}
