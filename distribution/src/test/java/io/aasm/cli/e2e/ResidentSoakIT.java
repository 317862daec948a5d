package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick soak (bench/soak.sh --quick: 40 confined launches at concurrency 1, 8 and 32 through a
 * resident kernel of its own) leaks nothing: after every phase the kernel's descriptors, its zombies,
 * its aasm-* cgroups, the private temp directories and the processes left in the soak's working
 * directory are back at their baseline, and no launch failed. The script says which count grew.
 */
class ResidentSoakIT {
    @Test
    void theQuickSoakLeaksNothing(@TempDir Path dir) throws Exception {
        Path script = Path.of("bench/soak.sh").toAbsolutePath();
        assertTrue(Files.isExecutable(script), script + " is missing");
        Process p = Aasm.startCommand(List.of(script.toString(), "--quick", "40", Aasm.DIST.toAbsolutePath().toString()),
                dir, Map.of());
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), "the quick soak did not finish in 10 minutes");
        Aasm.Result r = Aasm.result(p, dir);
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("| concurrency 32 | 40 | 0 |"), r.toString());
    }
}
