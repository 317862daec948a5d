package io.aasm.backend.landlockseccomp.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostDetectorTest {
    @TempDir
    Path tmp;

    private static final String HYBRID = String.join("\n",
            "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
            "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu",
            "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
            "38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
            "39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd",
            "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw", "");

    private static final String UNIFIED = "40 22 0:37 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n";

    record Fake(int abi, boolean seccomp, int euid) implements KernelQueries {
        @Override
        public OptionalInt landlockAbi() {
            return abi == 0 ? OptionalInt.empty() : OptionalInt.of(abi);
        }

        @Override
        public boolean seccompFilterAvailable() {
            return seccomp;
        }

        @Override
        public int euid() {
            return euid;
        }
    }

    private HostRoots tree(String mountinfo, String cgroup, String v2Dir, String v2Controllers) throws IOException {
        Path proc = tmp.resolve("proc");
        Files.createDirectories(proc.resolve("self"));
        Files.createDirectories(proc.resolve("sys/user"));
        Files.createDirectories(proc.resolve("sys/kernel/random"));
        Files.writeString(proc.resolve("self/mountinfo"), mountinfo);
        Files.writeString(proc.resolve("self/cgroup"), cgroup);
        Files.writeString(proc.resolve("sys/user/max_user_namespaces"), "96364\n");
        Files.writeString(proc.resolve("sys/kernel/osrelease"), "6.18.44\n");
        Files.writeString(proc.resolve("sys/kernel/random/boot_id"), "abc\n");
        Path v2 = tmp.resolve(v2Dir.substring(1));
        Files.createDirectories(v2);
        Files.writeString(v2.resolve("cgroup.controllers"), v2Controllers);
        return new HostRoots(proc, tmp.resolve("sys"), tmp);
    }

    @Test
    void detectsHybridLayoutWithV1ResourceControllers() throws IOException {
        HostRoots roots = tree(HYBRID, "8:pids:/\n4:memory:/agent/x\n0::/\n", "/sys/fs/cgroup/unified", "hugetlb\n");
        HostFacts f = new HostDetector(roots, new Fake(7, true, 0), "amd64", true).detect();
        CgroupLayout cg = f.cgroups();
        assertEquals(CgroupLayout.Kind.HYBRID, cg.kind());
        assertFalse(cg.home("pids").orElseThrow().unified());
        assertEquals(tmp.resolve("sys/fs/cgroup/memory/agent/x"), cg.home("memory").orElseThrow().ownDirectory());
        assertTrue(cg.killHome().isPresent());
        assertTrue(cg.home("hugetlb").orElseThrow().unified());
        assertFalse(cg.v1().containsKey("name=systemd"));
        assertEquals(7, f.landlockAbi());
        assertEquals(Arch.X86_64, f.arch().orElseThrow());
        assertEquals("6.18.44", f.kernelRelease());
        assertTrue(f.userNamespaces());
    }

    @Test
    void detectsUnifiedLayoutAndItsControllers() throws IOException {
        HostRoots roots = tree(UNIFIED, "0::/user.slice\n", "/sys/fs/cgroup", "cpu memory pids\n");
        HostFacts f = new HostDetector(roots, new Fake(3, true, 1000), "aarch64", true).detect();
        assertEquals(CgroupLayout.Kind.UNIFIED, f.cgroups().kind());
        CgroupLayout.ControllerHome pids = f.cgroups().home("pids").orElseThrow();
        assertTrue(pids.unified());
        assertEquals(tmp.resolve("sys/fs/cgroup/user.slice"), pids.ownDirectory());
        assertEquals(Arch.AARCH64, f.arch().orElseThrow());
        assertFalse(f.root());
    }

    @Test
    void missingFilesAndUnknownArchDetectNothing() throws IOException {
        Path proc = Files.createDirectories(tmp.resolve("empty"));
        HostFacts f = new HostDetector(new HostRoots(proc, proc, tmp), new Fake(7, true, 0), "s390x", false).detect();
        assertEquals(0, f.landlockAbi());
        assertFalse(f.seccompFilter());
        assertEquals(CgroupLayout.Kind.NONE, f.cgroups().kind());
        assertFalse(f.userNamespaces());
        assertEquals("unknown", f.bootId());
    }

    @Test
    void narrowingSimulatesAWeakerHost() throws IOException {
        HostRoots roots = tree(HYBRID, "0::/\n", "/sys/fs/cgroup/unified", "\n");
        HostFacts f = new HostDetector(roots, new Fake(7, true, 0), "amd64", true).detect();
        HostFacts n = f.narrowed(2, true, true);
        assertEquals(2, n.landlockAbi());
        assertFalse(n.root());
        assertFalse(n.namespaces());
        assertEquals(7, f.narrowed(-1, false, false).landlockAbi());
    }

    @Test
    void realHostIsReadable() {
        HostFacts f = HostDetector.real().detect();
        assertTrue(f.describe().contains("landlock_abi="), f.describe());
    }
}
