package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * aasm's JVMs, which run outside every boundary they establish, expose nothing through /tmp (issue 11,
 * item 4): no {@code hsperfdata} file (it shows the JVM's command line to the user's confined programs)
 * and no attach socket (a same-user process could load its own code into the JVM). The controls are
 * this test's own JVM, which has both.
 */
class JvmExposureIT {

    @Test
    void aColdRunPublishesNoPerfData(@TempDir Path dir) throws Exception {
        Path perf = Path.of("/tmp/hsperfdata_" + System.getProperty("user.name"));
        Assumptions.assumeTrue(Files.exists(perf.resolve(Long.toString(ProcessHandle.current().pid()))),
                "environment cannot host this check: this test JVM itself publishes no perf data, so its absence"
                        + " proves nothing");
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, Map.of("AASM_CLIENT", "off"), "run", "exec", "--isolation", "none",
                "--", "sh", "-c", "if [ -e " + perf + "/$PPID ]; then echo exposed; else echo hidden; fi;"
                        + " cat /proc/$PPID/comm");
        assertEquals(0, r.exit(), r.toString());
        assertEquals("hidden\njava\n", r.out(), "the program's parent is the aasm JVM, and it publishes perf data\n" + r);
    }

    @Test
    void theKernelsJvmPublishesNoPerfData() throws Exception {
        Path perf = Path.of("/tmp/hsperfdata_" + System.getProperty("user.name"));
        long self = ProcessHandle.current().pid();
        Assumptions.assumeTrue(Files.exists(perf.resolve(Long.toString(self))),
                "environment cannot host this check: this test JVM itself publishes no perf data, so its absence"
                        + " proves nothing");
        ResidentKernel k = ResidentKernel.start(Map.of());
        try {
            long pid = k.pid();
            assertFalse(Files.exists(perf.resolve(Long.toString(pid))), "the kernel publishes " + perf + "/" + pid);
        } finally {
            k.close();
        }
    }

    /** A same-user process that could attach would load its own code into the unconfined kernel. */
    @Test
    void theKernelsJvmTakesNoAttach(@TempDir Path cwd) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Assumptions.assumeTrue(Files.isExecutable(jcmd), "environment cannot host this check: no " + jcmd);
        long self = ProcessHandle.current().pid();
        Aasm.Result control = Aasm.command(cwd, Map.of(), List.of(jcmd.toString(), Long.toString(self), "VM.uptime"));
        assertEquals(0, control.exit(), "control: jcmd cannot attach even to this test's JVM\n" + control);
        ResidentKernel k = ResidentKernel.start(Map.of());
        try {
            long pid = k.pid();
            Aasm.Result attach = Aasm.command(cwd, Map.of(), List.of(jcmd.toString(), Long.toString(pid), "VM.uptime"));
            assertNotEquals(0, attach.exit(), "jcmd attached to the resident kernel:\n" + attach);
            assertFalse(Files.exists(Path.of("/tmp/.java_pid" + pid)), "the kernel opened an attach socket");
            assertEquals(pid, k.pid(), "the kernel did not survive the attach attempt");
        } finally {
            k.close();
        }
    }
}
