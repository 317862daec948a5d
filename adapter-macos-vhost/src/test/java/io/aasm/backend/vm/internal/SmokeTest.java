package io.aasm.backend.vm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aasm.ports.backend.ExitDisposition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
    @Test
    void aProgramRunsInTheGuestAndWritesItsWorkFolder(@TempDir Path dir) throws Exception {
        QemuVmBackend b = Guests.backend();
        Path out = Files.createDirectories(dir.resolve("out"));
        ExitDisposition d = b.runDirect(Guests.grandchild("echo hello > " + out.resolve("x") + "; exit 3", out, Map.of(),
                List.of(Guests.read(), Guests.write(out.toString()))));
        assertEquals("hello\n", Files.readString(out.resolve("x")));
        assertEquals(new ExitDisposition.Exited(0), d);
    }
}
