package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A detached daemon does not outlive the program; the supervisor JVM is never inside the boundary. */
class TeardownAndSupervisorTest {
    @TempDir
    Path tmp;

    @Test
    void setsidDoubleForkDaemonDoesNotSurvive() throws Exception {
        Harness h = Harness.shared();
        String marker = "9.53" + ProcessHandle.current().pid() % 1000;
        String action = "(setsid /bin/sh -c \"exec sleep " + marker + "\" &) ; :";
        // Control: the same command launched without aasm leaves the daemon behind.
        Process p = new ProcessBuilder("/bin/sh", "-c", "/bin/sh -c '" + action + "'").start();
        p.waitFor();
        long outside = 0;
        for (int i = 0; i < 50 && outside == 0; i++) {
            outside = ProcessConfinementTest.survivors(marker);
            Thread.sleep(20);
        }
        ProcessHandle.allProcesses().filter(x -> x.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
        assertEquals(1, outside, "control: an unconfined daemon survives its parent");
        h.run(Harness.grandchild("/bin/sh", action, tmp, Map.of(), List.of()));
        assertEquals(0, ProcessConfinementTest.survivors(marker), "the confined daemon is killed with the program");
    }

    @Test
    void immediateTerminationKillsTheWholeTree() throws Exception {
        Harness h = Harness.shared();
        String marker = "9.71" + ProcessHandle.current().pid() % 1000;
        Path started = tmp.resolve("started");
        var handle = h.start(Harness.grandchild("/bin/sh", "echo up > " + started + "; sleep " + marker, tmp, Map.of(),
                List.of()));
        for (int i = 0; i < 500 && !Files.exists(started); i++) {
            Thread.sleep(10);
        }
        assertTrue(Files.exists(started), "the grandchild started");
        assertTrue(handle.terminate(io.aasm.ports.backend.TerminationRequest.IMMEDIATE));
        var d = handle.await();
        assertTrue(d instanceof io.aasm.ports.backend.ExitDisposition.Signalled, d.toString());
        assertEquals(0, ProcessConfinementTest.survivors(marker), "no process of the tree survives termination");
        assertFalse(handle.terminate(io.aasm.ports.backend.TerminationRequest.IMMEDIATE),
                "terminating a finished launch delivers nothing");
    }

    private static String status(String field) throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith(field + ":"))
                .findFirst().orElse(field + ": ?").replaceAll("\\s+", " ");
    }

    @Test
    void supervisorStaysOutsideTheBoundary() throws Exception {
        Harness h = Harness.shared();
        Path secret = Files.writeString(Files.createDirectories(tmp.resolve("secret")).resolve("s"), "outside-only");
        Path out = Files.createDirectories(tmp.resolve("out"));
        assertEquals("Seccomp: 0", status("Seccomp"));
        assertEquals("NoNewPrivs: 0", status("NoNewPrivs"));
        h.sh("cat " + secret + " > " + out.resolve("copy"), tmp, read(), write(out.toString()),
                Harness.req(io.aasm.ports.capability.CapabilityDomain.SYSCALL, new io.aasm.ports.policy.Scope.Syscalls(
                        io.aasm.ports.policy.SyscallMode.DENY, List.of("ptrace"))));
        assertFalse(Files.readString(out.resolve("copy")).contains("outside-only"), "the confined program could not read it");
        assertEquals("outside-only", Files.readString(secret), "the JVM still can");
        assertTrue(Files.isWritable(tmp), "the JVM can still write outside the grants");
        assertEquals("Seccomp: 0", status("Seccomp"), "no filter on the JVM after the launch");
        assertEquals("NoNewPrivs: 0", status("NoNewPrivs"));
    }
}
