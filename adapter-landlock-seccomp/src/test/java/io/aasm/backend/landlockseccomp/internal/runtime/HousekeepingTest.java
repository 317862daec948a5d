package io.aasm.backend.landlockseccomp.internal.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The switches: off unless set (never on by default outside the resident kernel); a bad count is refused by name, never defaulted. */
class HousekeepingTest {
    @AfterEach
    void clear() {
        System.clearProperty("aasm.native.cgroupSpares");
        System.clearProperty("aasm.native.teardownAfter");
    }

    @Test
    void unsetTheyAreOffAndNeverOnOutsideTheResidentKernel() {
        assertEquals(Housekeeping.DEFAULT_ON ? new Housekeeping(Housekeeping.SPARES, true) : Housekeeping.inline(),
                Housekeeping.of(true));
        assertEquals(Housekeeping.inline(), Housekeeping.of(false));
    }

    @Test
    void setTheyWinEitherWay() {
        System.setProperty("aasm.native.cgroupSpares", "0");
        System.setProperty("aasm.native.teardownAfter", "false");
        assertEquals(Housekeeping.inline(), Housekeeping.of(true));
        System.setProperty("aasm.native.cgroupSpares", "2");
        System.setProperty("aasm.native.teardownAfter", "true");
        assertEquals(new Housekeeping(2, true), Housekeeping.of(false));
    }

    @Test
    void aBadCountIsRefusedByName() {
        for (String bad : new String[] {"four", "-1", "4x"}) {
            System.setProperty("aasm.native.cgroupSpares", bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Housekeeping.of(true));
            assertTrue(e.getMessage().contains("aasm.native.cgroupSpares") && e.getMessage().contains(bad),
                    e.getMessage());
        }
    }
}
