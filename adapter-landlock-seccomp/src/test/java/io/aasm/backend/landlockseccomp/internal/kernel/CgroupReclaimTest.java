package io.aasm.backend.landlockseccomp.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.cgroup.Leftovers;
import io.aasm.backend.landlockseccomp.internal.host.CgroupLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A per-launch group whose owner died (a pid no process has) is emptied and removed, its process killed;
 * the control, a group owned by this very JVM, is left alone with its process alive.
 */
class CgroupReclaimTest {
    @Test
    void aDeadOwnersGroupIsEmptiedAndRemovedALiveOwnersIsNot() throws Exception {
        Harness h = Harness.shared();
        CgroupLayout layout = h.backend.facts().cgroups();
        Assumptions.assumeTrue(h.backend.facts().root() && layout.killHome().isPresent(),
                "environment cannot host this check: needs root and a cgroup2 mount to make groups");
        Path parent = layout.killHome().get().ownDirectory();
        long self = ProcessHandle.current().pid();
        String selfStart = Files.readString(Path.of("/proc/self/stat"));
        String start = selfStart.substring(selfStart.lastIndexOf(')') + 2).split(" ")[19];
        Path dead = Files.createDirectory(parent.resolve("aasm-4194303.1-" + UUID.randomUUID()));
        Path live = Files.createDirectory(parent.resolve("aasm-" + self + "." + start + "-" + UUID.randomUUID()));
        Process inDead = new ProcessBuilder("sleep", "300").start();
        Process inLive = new ProcessBuilder("sleep", "300").start();
        try {
            Files.writeString(dead.resolve("cgroup.procs"), Long.toString(inDead.pid()));
            Files.writeString(live.resolve("cgroup.procs"), Long.toString(inLive.pid()));
            List<Path> removed = Leftovers.reclaim(layout, Path.of("/proc"));
            assertTrue(removed.contains(dead), removed.toString());
            assertFalse(Files.exists(dead), "the dead owner's group is gone");
            assertTrue(inDead.waitFor(10, TimeUnit.SECONDS), "its process was killed");
            assertTrue(Files.exists(live), "control: a live owner's group stays");
            assertTrue(inLive.isAlive(), "control: a live owner's process keeps running");
        } finally {
            inDead.destroyForcibly();
            inLive.destroyForcibly();
            inLive.waitFor(10, TimeUnit.SECONDS);
            for (int i = 0; i < 100 && Files.exists(live); i++) {
                try {
                    Files.deleteIfExists(live);
                } catch (java.io.IOException e) {
                    Thread.sleep(10);
                }
            }
            Files.deleteIfExists(dead);
        }
    }
}
