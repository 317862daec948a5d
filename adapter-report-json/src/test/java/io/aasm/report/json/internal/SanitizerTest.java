package io.aasm.report.json.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SanitizerTest {
    @Test
    void collapsesEachRunOfUnsafeCharactersToOneSpace() {
        assertEquals("a b c d", Sanitizer.clean("a\r\n\tb\u001b\u0007c\u0085d"));
        assertEquals("x y z", Sanitizer.clean("x\u2028y\u2029z"));
    }

    @Test
    void removesInvisibleFormatCharactersIncludingSupplementaryOnes() {
        assertEquals("ab c d", Sanitizer.clean("ab\u202Ec\u200Bd"));
        assertEquals("tag ", Sanitizer.clean("tag\uDB40\uDC01"));
    }

    @Test
    void keepsOrdinaryTextIncludingNonAscii() {
        assertEquals("NO — café /tmp/ü 🙂", Sanitizer.clean("NO — café /tmp/ü 🙂"));
    }
}
