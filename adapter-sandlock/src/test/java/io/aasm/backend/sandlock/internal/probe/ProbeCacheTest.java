package io.aasm.backend.sandlock.internal.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.PrerequisiteStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe cache key follows boot, kernel and binary; results round-trip unchanged. */
class ProbeCacheTest {
    @TempDir
    Path dir;

    private Path proc(String boot, String kernel) throws Exception {
        Path p = dir.resolve("proc-" + boot + "-" + kernel);
        Files.createDirectories(p.resolve("sys/kernel/random"));
        Files.writeString(p.resolve("sys/kernel/random/boot_id"), boot + "\n");
        Files.writeString(p.resolve("sys/kernel/osrelease"), kernel + "\n");
        return p;
    }

    @Test
    void keyChangesWithBootKernelAndDigest() throws Exception {
        ProbeCache a = new ProbeCache(dir, proc("b1", "6.18"));
        assertEquals(a.key("d1"), a.key("d1"));
        assertNotEquals(a.key("d1"), a.key("d2"));
        assertNotEquals(a.key("d1"), new ProbeCache(dir, proc("b2", "6.18")).key("d1"));
        assertNotEquals(a.key("d1"), new ProbeCache(dir, proc("b1", "6.19")).key("d1"));
    }

    @Test
    void resultsRoundTrip() throws Exception {
        ProbeCache c = new ProbeCache(dir.resolve("cache"), proc("b", "k"));
        ProbeResults r = new ProbeResults(Map.of(
                ProbeResults.FS_READ, new PrerequisiteStatus.Satisfied("seen"),
                ProbeResults.FS_WRITE, new PrerequisiteStatus.Unsatisfied("changed"),
                ProbeResults.EGRESS, new PrerequisiteStatus.Unchecked("no bash")), Instant.parse("2026-11-29T12:00:00Z"));
        assertTrue(c.load(c.key("d")).isEmpty());
        c.store(c.key("d"), r);
        assertEquals(r, c.load(c.key("d")).orElseThrow());
        assertTrue(c.load(c.key("other")).isEmpty());
    }

    @Test
    void aProbeThatNeverRanIsUncheckedNotSatisfied() {
        ProbeResults r = new ProbeResults(Map.of(), Instant.EPOCH);
        assertTrue(r.status(ProbeResults.SYSCALL) instanceof PrerequisiteStatus.Unchecked);
    }
}
