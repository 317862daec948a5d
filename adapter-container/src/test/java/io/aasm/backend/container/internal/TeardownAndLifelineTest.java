package io.aasm.backend.container.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.aasm.backend.container.internal.engine.Engine;
import io.aasm.backend.container.internal.engine.EngineSocket;
import io.aasm.backend.container.internal.runtime.Owner;
import io.aasm.ports.backend.ExitDisposition;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing of a launch outlives it: not its container, not a daemon it started; and not when its
 * supervisor is killed: the guard removes the container then, and when the guard was killed too, the next
 * start of the backend does. Observed on the engine's own container list and the host's process table.
 */
class TeardownAndLifelineTest {
    @TempDir
    Path t;

    static Engine engine() throws Exception {
        return Engine.connect(((EngineSocket.Located.Found) EngineSocket.locate(Optional.empty(), System.getenv())).socket());
    }

    static List<Long> carrying(String marker) {
        return ProcessHandle.allProcesses().filter(h -> {
            try {
                return Files.readString(Path.of("/proc", Long.toString(h.pid()), "cmdline")).contains(marker);
            } catch (Exception e) {
                return false;
            }
        }).map(ProcessHandle::pid).toList();
    }

    static List<Map.Entry<String, JsonNode>> labelled(String marker) throws Exception {
        return engine().listLabelled(Owner.BACKEND_LABEL, "aasm-container").stream().filter(c -> {
            try {
                return engine().inspect(c.getKey()).map(j -> j.path("Args").toString().contains(marker)).orElse(false);
            } catch (Exception e) {
                return false;
            }
        }).toList();
    }

    @Test
    void aDaemonTheProgramStartedDiesWithItAndNoContainerIsLeft() throws Exception {
        Harness h = Harness.shared();
        Path out = Files.createDirectories(t.resolve("out"));
        String marker = "aasm-daemon-" + UUID.randomUUID();
        ExitDisposition d = h.sh("setsid sh -c \"while :; do echo x >> " + out + "/beat; sleep 0.2; done\" " + marker
                + " & sleep 1", t, Harness.read(t.toString()), Harness.write(out.toString()));
        assertEquals(new ExitDisposition.Exited(0), d);
        assertTrue(Files.size(out.resolve("beat")) > 0, "control: the daemon ran");
        assertEquals(List.of(), carrying(marker), "no process of the launch survives it");
        long size = Files.size(out.resolve("beat"));
        Thread.sleep(500);
        assertEquals(size, Files.size(out.resolve("beat")), "no heartbeat after the end");
        assertEquals(List.of(), engine().listLabelled(Owner.OWNER_LABEL, new Owner(Path.of("/proc")).self()));
    }

    private Process helper(String marker) throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                LifelineHelper.class.getName(), marker).redirectErrorStream(true).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()));
        String line;
        StringBuilder seen = new StringBuilder();
        while ((line = r.readLine()) != null && !line.equals("started")) {
            seen.append(line).append('\n');
        }
        assertEquals("started", line, "the helper did not start its container:\n" + seen);
        return p;
    }

    private static boolean gone(String marker, long millis) throws Exception {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            if (carrying(marker).isEmpty() && labelled(marker).isEmpty()) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    @Test
    void aKilledSupervisorsGuardRemovesItsContainer() throws Exception {
        Harness.requireEngine();
        String marker = "aasm-lifeline-" + UUID.randomUUID();
        Process p = helper(marker);
        assertFalse(carrying(marker).isEmpty(), "control: the program runs");
        Thread.sleep(500);
        assertFalse(carrying(marker).isEmpty(), "control: the program still runs");
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
        assertTrue(gone(marker, 15_000), "the container and its program are gone after the supervisor's SIGKILL");
    }

    @Test
    void whenTheGuardDiesTooTheNextStartReclaimsTheContainer() throws Exception {
        Harness.requireEngine();
        String marker = "aasm-reclaim-" + UUID.randomUUID();
        Process p = helper(marker);
        List<ProcessHandle> guards = p.children().filter(c -> c.info().command().orElse("").endsWith("aasm-container-guard"))
                .toList();
        assertEquals(1, guards.size(), "one guard per running launch");
        guards.get(0).destroyForcibly();
        guards.get(0).onExit().get(10, TimeUnit.SECONDS);
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
        Thread.sleep(2000);
        assertFalse(carrying(marker).isEmpty(), "control: with guard and supervisor killed the container still runs");
        new ContainerBackend(Settings.defaults().withProbeCacheDir(Harness.cacheDir())).capabilities();
        assertTrue(gone(marker, 15_000), "the next start of the backend removed the container of a gone supervisor");
    }
}
