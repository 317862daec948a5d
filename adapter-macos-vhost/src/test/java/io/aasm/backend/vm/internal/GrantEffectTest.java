package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two claims beyond the probes, each a pair that differs by one grant, acted by a grandchild in a real guest
 * and judged on the host: a read grant is a read-only share (the file stays byte for byte), and the wall
 * clock is the host's (the VM dies before the late write).
 */
class GrantEffectTest {
    @Test
    void aFolderGrantedForReadingCannotBeWrittenThrough(@TempDir Path dir) throws Exception {
        Path shared = Files.createDirectories(dir.resolve("shared"));
        Path file = Files.writeString(shared.resolve("f"), "original");
        Path out = Files.createDirectories(dir.resolve("out"));
        String action = "echo changed > " + file + "; echo changed >> " + file + "; touch " + shared.resolve("new");

        Guests.backend().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString()))));
        assertEquals("original", Files.readString(file), "the read-only share was written through");
        assertFalse(Files.exists(shared.resolve("new")), "a file was created in the read-only share");

        // control: the same action with the folder granted for writing too
        Guests.backend().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(shared.toString()),
                Guests.write(out.toString(), shared.toString()))));
        assertEquals("changed\nchanged\n", Files.readString(file));
        assertTrue(Files.exists(shared.resolve("new")));
    }

    @Test
    void theHostKillsTheVmAtTheWallClockCeiling(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path late = out.resolve("late");
        String action = "sleep 8; echo late > " + late;

        ExitDisposition d = Guests.backend().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(),
                Guests.write(out.toString()), wallClock(2))));
        Thread.sleep(1000); // nothing of the guest can write after its VM is gone; give a straggler the chance
        assertEquals(new ExitDisposition.Signalled(9), d);
        assertFalse(Files.exists(late), "the program outlived the wall-clock ceiling");

        // control: the same action under a ceiling it stays within
        ExitDisposition c = Guests.backend().runDirect(Guests.grandchild(action, out, Map.of(), List.of(Guests.read(),
                Guests.write(out.toString()), wallClock(120))));
        assertEquals(new ExitDisposition.Exited(0), c);
        assertEquals("late\n", Files.readString(late));
    }

    private static ControlRequirement wallClock(long seconds) {
        return ControlRequirement.strict(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(),
                OptionalLong.empty(), OptionalLong.of(seconds), OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty()));
    }
}
