package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.plan.PlanCache;
import io.aasm.backend.landlockseccomp.internal.runtime.LandlockSeccompBackendPlan;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.LaunchException;
import io.aasm.ports.policy.ControlRequirement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grant path changed between two launches of the same policy is seen by the second launch, through the plan
 * cache: the write lands where a fresh lowering says (or the launch is refused where it says so), the file the old
 * plan would have reached is unchanged byte for byte. Control: the path unchanged, the second launch is a cache hit
 * and its write lands in the same folder as the first. The writer is a grandchild of the launched shell.
 */
class PlanCacheEffectTest {
    @TempDir
    Path tmp;
    Harness h;
    LandlockSeccompBackend backend;
    Path a;
    Path b;
    Path link;

    @BeforeEach
    void setUp() throws Exception {
        System.clearProperty(PlanCache.PROPERTY);
        h = Harness.shared();
        backend = h.backend;
        a = Files.createDirectories(tmp.resolve("a"));
        b = Files.createDirectories(tmp.resolve("b"));
        Files.writeString(a.resolve("f"), "original a\n");
        Files.writeString(b.resolve("f"), "original b\n");
        link = Files.createSymbolicLink(tmp.resolve("link"), a);
    }

    @AfterEach
    void cacheBackOn() {
        System.clearProperty(PlanCache.PROPERTY);
    }

    private ExecutionSpec writeThrough(String grant, String text) {
        List<ControlRequirement> reqs = List.of(read(), write(grant));
        return Harness.grandchild("/bin/sh", "echo " + text + " > " + grant + "/f", tmp, Map.of(), reqs);
    }

    /** The plan a fresh lowering makes for {@code spec} now (the cache switched off for this one call). */
    private LandlockSeccompBackendPlan fresh(ExecutionSpec spec) {
        System.setProperty(PlanCache.PROPERTY, "false");
        try {
            return (LandlockSeccompBackendPlan) backend.plan(spec);
        } finally {
            System.clearProperty(PlanCache.PROPERTY);
        }
    }

    @Test
    void unchangedPathIsACacheHitAndWritesWhereBefore() throws Exception {
        h.run(writeThrough(link.toString(), "first"));
        assertEquals("first\n", Files.readString(a.resolve("f")));
        long hits = backend.plans().hits();
        ExecutionSpec second = writeThrough(link.toString(), "second");
        assertEquals(fresh(second), backend.plan(second), "the kept plan is the fresh one");
        h.run(second);
        assertTrue(backend.plans().hits() >= hits + 2, "both plans of the unchanged path were cache hits");
        assertEquals("second\n", Files.readString(a.resolve("f")));
        assertEquals("original b\n", Files.readString(b.resolve("f")));
    }

    @Test
    void symlinkRePointedBetweenLaunchesIsSeen() throws Exception {
        h.run(writeThrough(link.toString(), "first"));
        assertEquals("first\n", Files.readString(a.resolve("f")));
        byte[] aBefore = Files.readAllBytes(a.resolve("f"));
        PlanCacheEquivalenceTest.relink(link, b);
        long stale = backend.plans().stale();
        ExecutionSpec second = writeThrough(link.toString(), "second");
        h.run(second);
        assertEquals("second\n", Files.readString(b.resolve("f")), "the write reached the new target");
        assertArrayEquals(aBefore, Files.readAllBytes(a.resolve("f")), "the old target is unchanged byte for byte");
        assertEquals(stale + 1, backend.plans().stale(), "the kept plan was dropped: the link's answer changed");
        assertEquals(fresh(second), backend.plan(second));
    }

    @Test
    void folderReplacedBySymlinkBetweenLaunchesIsSeen() throws Exception {
        Path d = Files.createDirectories(tmp.resolve("d"));
        h.run(writeThrough(d.toString(), "first"));
        assertEquals("first\n", Files.readString(d.resolve("f")));
        PlanCacheEquivalenceTest.replaceByLink(d, b);
        Path old = tmp.resolve("d.old");
        byte[] oldBefore = Files.readAllBytes(old.resolve("f"));
        ExecutionSpec second = writeThrough(d.toString(), "second");
        h.run(second);
        assertEquals("second\n", Files.readString(b.resolve("f")), "the write reached the symlink's target");
        assertArrayEquals(oldBefore, Files.readAllBytes(old.resolve("f")), "the replaced folder is unchanged");
        assertEquals(fresh(second), backend.plan(second));
    }

    @Test
    void symlinkOwnerChangedBetweenLaunchesRefusesAsFreshDoes() throws Exception {
        h.run(writeThrough(link.toString(), "first"));
        byte[] aBefore = Files.readAllBytes(a.resolve("f"));
        PlanCacheEquivalenceTest.owner(link, 65534);
        ExecutionSpec second = writeThrough(link.toString(), "second");
        LaunchException e = assertThrows(LaunchException.class, () -> h.run(second));
        assertTrue(e.getMessage().contains("owned by uid 65534"), e.getMessage());
        assertArrayEquals(aBefore, Files.readAllBytes(a.resolve("f")), "nothing was written through the link");
        assertEquals("original b\n", Files.readString(b.resolve("f")));
        assertEquals(fresh(second), backend.plan(second));
        // control: the owner back to root, the same launch runs and writes
        PlanCacheEquivalenceTest.owner(link, 0);
        h.run(second);
        assertEquals("second\n", Files.readString(a.resolve("f")));
    }
}
