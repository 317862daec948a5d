package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resource ceilings: the effect (file size, count, completion marker) is what the test checks. */
class ResourceConfinementTest {
    @TempDir
    Path tmp;

    static ControlRequirement limits(Long memory, Long cpu, Long wall, Long files, Long fsize) {
        return req(CapabilityDomain.RESOURCE, new Scope.Limits(opt(memory), opt(cpu), opt(wall), opt(files), opt(fsize),
                OptionalLong.empty()));
    }

    private static OptionalLong opt(Long v) {
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    private Path script(String name, String body) throws Exception {
        return Files.writeString(tmp.resolve(name), body);
    }

    @Test
    void fileSizeCeilingCapsTheWrittenFile() throws Exception {
        Harness h = Harness.shared();
        Path big = tmp.resolve("big");
        String action = "yes aasm | head -c 100000 > " + big;
        h.sh(action, tmp, limits(null, null, null, null, 4096L));
        assertTrue(Files.size(big) <= 4096, "capped at 4096 bytes, got " + Files.size(big));
        h.sh(action, tmp, limits(null, null, null, null, 1L << 20));
        assertEquals(100000, Files.size(big), "control: a 1 MiB ceiling lets the whole file through");
    }

    @Test
    void openFilesCeilingLimitsDescriptors() throws Exception {
        Harness h = Harness.shared();
        Path count = tmp.resolve("count");
        Path py = script("open.py", "import os, sys\nfs = []\ntry:\n    for i in range(64):\n"
                + "        fs.append(open(sys.argv[1], 'rb'))\nexcept OSError:\n    pass\nn = len(fs)\n"
                + "for f in fs:\n    f.close()\nopen(sys.argv[2], 'w').write(str(n))\n");
        String action = "/usr/bin/python3 " + py + " " + py + " " + count;
        h.sh(action, tmp, limits(null, null, null, 16L, null));
        assertTrue(Integer.parseInt(Files.readString(count)) <= 16, "descriptors numbered below 16 only: " + Files.readString(count));
        h.sh(action, tmp, limits(null, null, null, 256L, null));
        assertEquals("64", Files.readString(count), "control: 256 descriptors allow all 64 opens");
    }

    @Test
    void cpuSecondsCeilingKillsABusyLoop() throws Exception {
        Harness h = Harness.shared();
        Path done = tmp.resolve("done");
        Path py = script("busy.py", "import time, sys\nwhile time.process_time() < 2.0:\n    pass\n"
                + "open(sys.argv[1], 'w').write('done')\n");
        String action = "/usr/bin/python3 " + py + " " + done;
        h.sh(action, tmp, limits(null, 1L, null, null, null));
        assertFalse(Files.exists(done), "killed at 1 CPU second, before 2 seconds of work");
        h.sh(action, tmp, limits(null, 30L, null, null, null));
        assertTrue(Files.exists(done), "control: a 30 s ceiling lets 2 s of work finish");
    }

    @Test
    void memoryCeilingStopsALargeAllocation() throws Exception {
        Harness h = Harness.shared();
        Path done = tmp.resolve("allocated");
        Path py = script("mem.py", "import sys\nb = bytearray(200 * 1024 * 1024)\nfor i in range(0, len(b), 4096):\n"
                + "    b[i] = 1\nopen(sys.argv[1], 'w').write('allocated')\n");
        String action = "/usr/bin/python3 " + py + " " + done;
        h.sh(action, tmp, limits(96L << 20, null, null, null, null));
        assertFalse(Files.exists(done), "a 200 MiB allocation must fail under a 96 MiB ceiling");
        h.sh(action, tmp, limits(1L << 30, null, null, null, null));
        assertTrue(Files.exists(done), "control: under a 1 GiB ceiling the allocation succeeds");
    }

    @Test
    void wallClockKillsTheWholeTreeIncludingADaemon() throws Exception {
        Harness h = Harness.shared();
        String marker = "8.41" + ProcessHandle.current().pid() % 1000;
        String action = "setsid /bin/sh -c \"exec sleep " + marker + "\" & sleep " + marker;
        ExitDisposition d = h.sh(action, tmp, limits(null, null, 1L, null, null));
        assertEquals(new ExitDisposition.Signalled(9), d);
        assertEquals(0, ProcessConfinementTest.survivors(marker), "no process of the tree survives the deadline");
        Path done = tmp.resolve("done");
        h.sh("echo done > " + done, tmp, limits(null, null, 30L, null, null));
        assertTrue(Files.exists(done), "control: a program within its deadline completes");
    }
}
