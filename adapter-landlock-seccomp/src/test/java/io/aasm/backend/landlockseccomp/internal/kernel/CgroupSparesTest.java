package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings;
import io.aasm.backend.landlockseccomp.internal.cgroup.CgroupPlacement;
import io.aasm.backend.landlockseccomp.internal.cgroup.CgroupSpares;
import io.aasm.backend.landlockseccomp.internal.host.CgroupLayout;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan.CgroupLimit;
import io.aasm.backend.landlockseccomp.internal.runtime.Housekeeping;
import io.aasm.backend.landlockseccomp.internal.runtime.Janitor;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Groups made ahead (CgroupSpares) and removed after the status (CgroupPlacement.closeAfter), on this host's real
 * hierarchies: a spare starts with no member, no charge and exactly its launch's limits; a used v1 memory group
 * keeps a charge (why a group is never reused); no two launches share a group; a kernel that stops leaves no group;
 * a ceiling still stops a grandchild when the groups came from spares; the tree is dead before closeAfter returns.
 */
class CgroupSparesTest {
    private static final long MIB = 1L << 20;

    @TempDir
    Path tmp;

    private static CgroupLayout layout() {
        Harness h = Harness.shared();
        CgroupLayout l = h.backend.facts().cgroups();
        Assumptions.assumeTrue(h.backend.facts().root() && l.home("memory").isPresent() && l.home("pids").isPresent()
                && l.killHome().isPresent(), "environment cannot host this check: needs root, memory and pids "
                + "controllers and a cgroup2 mount");
        return l;
    }

    private static List<CgroupLimit> limits(long memory, int pids, CgroupLayout l) {
        boolean v2 = l.home("memory").get().unified();
        return List.of(new CgroupLimit("memory", v2 ? "memory.max" : "memory.limit_in_bytes", Long.toString(memory)),
                new CgroupLimit("pids", "pids.max", Integer.toString(pids)));
    }

    private static String read(Path p) throws Exception {
        return Files.readString(p).trim();
    }

    /** The groups of this JVM (named after it), in every hierarchy, as the soak counts them. */
    static Set<Path> ownGroups() throws Exception {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String owner = "aasm-" + ProcessHandle.current().pid() + "." + stat.substring(stat.lastIndexOf(')') + 2)
                .split(" ")[19] + "-";
        Set<Path> out = new HashSet<>();
        walk(Path.of("/sys/fs/cgroup"), 4, owner, out);
        return out;
    }

    /** By hand: other sessions' launch groups vanish during the walk (a Files.find would throw). */
    private static void walk(Path dir, int depth, String owner, Set<Path> out) {
        try (var entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (!Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                if (name.startsWith(owner)) {
                    out.add(p);
                } else if (depth > 1 && !name.startsWith("aasm-")) {
                    walk(p, depth - 1, owner, out);
                }
            }
        } catch (java.io.IOException | java.nio.file.DirectoryIteratorException e) {
            // gone while walking: it held none of ours
        }
    }

    private static Set<Path> added(Set<Path> before) {
        try {
            Set<Path> now = new HashSet<>(ownGroups());
            now.removeAll(before);
            return now;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
            Thread.sleep(5);
        }
    }

    @Test
    void aSpareStartsEmptyUnchargedAndWithExactlyItsLaunchsLimits() throws Exception {
        CgroupLayout l = layout();
        Path memParent = l.home("memory").get().ownDirectory();
        List<Runnable> maker = new ArrayList<>(); // the spares are made when this test says so
        try (CgroupSpares spares = CgroupSpares.ahead(2, maker::add)) {
            CgroupPlacement first = CgroupPlacement.create(l, limits(64 * MIB, 7, l), true, spares);
            assertEquals(0, spares.ready(memParent), "none made yet: the first launch made its own");
            List.copyOf(maker).forEach(Runnable::run);
            maker.clear();
            assertEquals(2, spares.ready(memParent), "two memory spares made ahead");
            CgroupPlacement second = CgroupPlacement.create(l, limits(32 * MIB, 5, l), true, spares);
            assertEquals(1, spares.ready(memParent), "the second launch's memory group was a spare");
            try {
                Path mem = second.directories().get("memory");
                Path pids = second.directories().get("pids");
                for (Path d : second.directories().values()) {
                    assertEquals("", read(d.resolve("cgroup.procs")), "no member in " + d);
                }
                if (!l.home("memory").get().unified()) {
                    assertEquals("0", read(mem.resolve("memory.usage_in_bytes")), "no charge");
                    assertEquals("0", read(mem.resolve("memory.max_usage_in_bytes")), "never charged");
                    assertEquals(Long.toString(32 * MIB), read(mem.resolve("memory.limit_in_bytes")));
                }
                assertEquals("5", read(pids.resolve("pids.max")), "this launch's ceiling, not the first one's");
                assertEquals("0", read(pids.resolve("pids.current")));
                assertEquals(Long.toString(64 * MIB), read(first.directories().get("memory").resolve(
                        l.home("memory").get().unified() ? "memory.max" : "memory.limit_in_bytes")), "control: "
                        + "the first launch keeps its own limit");
            } finally {
                first.close();
                second.close();
            }
        }
    }

    /** Why a group is never reused: page cache its tasks wrote stays charged to a v1 memory group after they exit. */
    @Test
    void aUsedMemoryGroupKeepsItsTasksChargeAfterTheyExit() throws Exception {
        CgroupLayout l = layout();
        Assumptions.assumeFalse(l.home("memory").get().unified(), "environment cannot host this check: v1 memory");
        CgroupPlacement used = CgroupPlacement.create(l, limits(256 * MIB, 16, l), false);
        try {
            Path mem = used.directories().get("memory");
            Path written = tmp.resolve("cache");
            Process p = new ProcessBuilder("/bin/sh", "-c", "echo $$ > " + mem.resolve("tasks")
                    + " && head -c 16777216 /dev/zero > " + written).start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "the writer ran in the group");
            assertEquals("", read(mem.resolve("cgroup.procs")), "no member is left");
            long charge = Long.parseLong(read(mem.resolve("memory.usage_in_bytes")));
            assertTrue(charge >= 8 * MIB, "the written file's page cache is still charged: " + charge);
            assertEquals(16 * MIB, Files.size(written), "control: the writer wrote all 16 MiB");
        } finally {
            used.close();
        }
    }

    @Test
    void twoLaunchesNeverShareAGroup() throws Exception {
        CgroupLayout l = layout();
        Set<Path> seen = new HashSet<>();
        List<CgroupPlacement> held = new ArrayList<>();
        try (Janitor maker = Janitor.background(); CgroupSpares spares = CgroupSpares.ahead(2, maker)) {
            for (int i = 0; i < 12; i++) {
                CgroupPlacement p = CgroupPlacement.create(l, limits(64 * MIB, 8, l), true, spares);
                held.add(p);
                for (Path d : p.directories().values()) {
                    assertTrue(seen.add(d), "group " + d + " was handed out twice");
                }
                if (i % 3 == 2) { // some end (removed later) while others run: an ended group never comes back
                    held.remove(0).closeAfter(maker);
                }
            }
            assertEquals(36, seen.size(), "12 launches, three groups each, all distinct");
        } finally {
            held.forEach(CgroupPlacement::close);
        }
    }

    @Test
    void closeAfterReturnsWithTheTreeDeadAndRemovesTheGroupsLater() throws Exception {
        CgroupLayout l = layout();
        List<Runnable> queued = new ArrayList<>();
        CgroupPlacement p = CgroupPlacement.create(l, limits(64 * MIB, 8, l), true);
        Process outside = new ProcessBuilder("sleep", "300").start();
        // a setsid daemon in every group: the cgroup.kill of the teardown group is what ends it
        Path pidFile = tmp.resolve("pid");
        StringBuilder join = new StringBuilder("set -e; ");
        for (String f : p.procsFiles()) {
            join.append("echo $$ > ").append(f).append("; ");
        }
        Process starter = new ProcessBuilder("/bin/sh", "-c", join + "setsid sleep 300 > /dev/null 2>&1 & echo $! > " + pidFile).start();
        try {
            assertTrue(starter.waitFor(30, TimeUnit.SECONDS) && starter.exitValue() == 0, "the daemon was started");
            long daemon = Long.parseLong(read(pidFile));
            assertTrue(ProcessHandle.of(daemon).map(ProcessHandle::isAlive).orElse(false), "the daemon runs");
            for (Path g : new HashSet<>(p.directories().values())) {
                assertTrue(read(g.resolve("cgroup.procs")).lines().anyMatch(Long.toString(daemon)::equals),
                        "the daemon is in " + g);
            }
            List<Path> groups = List.copyOf(new HashSet<>(p.directories().values()));
            p.closeAfter(queued::add);
            Path stat = Path.of("/proc/" + daemon + "/stat");
            assertTrue(!Files.exists(stat) || read(stat).contains(") Z "), "the daemon is dead when closeAfter returns");
            assertTrue(outside.isAlive(), "control: a process outside the groups lives on");
            assertFalse(queued.isEmpty(), "the removal was left for later");
            assertTrue(p.directories().isEmpty(), "the placement no longer holds the groups");
            assertEquals(3, groups.size());
            assertTrue(groups.stream().allMatch(Files::isDirectory), "the emptied groups are still there");
            queued.forEach(Runnable::run);
            assertTrue(groups.stream().noneMatch(Files::exists), "the queued task removed them: " + groups);
        } finally {
            outside.destroyForcibly();
            p.close();
        }
    }

    /**
     * Through a backend made as the resident kernel makes it: a pids ceiling of spare groups still stops a grandchild
     * (control: a higher ceiling lets it run), the spares are made, and stopping the backend removes every group.
     */
    @Test
    void aCeilingHoldsWithSparesAndAStoppedBackendLeavesNoGroup() throws Exception {
        layout();
        Set<Path> before = ownGroups(); // other tests' groups are not this backend's
        LandlockSeccompBackend b = new LandlockSeccompBackend(LandlockSeccompSettings.defaults()
                .withProbeCacheDir(Harness.cacheDir()), false, new Housekeeping(2, true));
        try {
            Harness h = new Harness(b);
            Path out = tmp.resolve("started");
            String action = "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do (echo x >> " + out + "; sleep 1) & done; wait";
            for (int run = 0; run < 3; run++) { // the later runs take spares made after the first
                Files.deleteIfExists(out);
                h.sh(action, tmp, req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(8)));
                long started = Files.exists(out) ? Files.readAllLines(out).size() : 0;
                assertTrue(started < 12, "a ceiling of 8 tasks stops some of the 12 grandchildren: " + started);
            }
            Files.deleteIfExists(out);
            h.sh(action, tmp, req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(64)));
            assertEquals(12, Files.readAllLines(out).size(), "control: a ceiling of 64 lets all 12 start");
            await(() -> added(before).size() == 4, "the used groups are removed and two spares made in each of the "
                    + "pids and cgroup2 hierarchies");
        } finally {
            b.deactivate();
        }
        assertEquals(Set.of(), added(before), "a stopped backend leaves no group, used or spare");
    }
}
