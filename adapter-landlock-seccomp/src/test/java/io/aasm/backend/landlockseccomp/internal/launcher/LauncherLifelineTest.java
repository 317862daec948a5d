package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SIGKILL of the supervising JVM leaves no process of the confined tree, including a setsid daemon.
 * Processes are found by a unique argument of {@code sleep}, so the test never confuses them with others.
 */
class LauncherLifelineTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"pidns", "nopidns", "relay"})
    void killingTheSupervisorKillsTheWholeTree(String mode) throws Exception {
        String tag = LauncherFixture.newTag();
        Path marker = dir.resolve("daemon-started");
        // The program starts a setsid daemon (double fork), then sleeps itself.
        String script = "/usr/bin/setsid /bin/sh -c '/bin/sleep " + tag + " & /bin/sleep " + tag + "' </dev/null >/dev/null 2>&1 &"
                + " echo up > " + marker + "; exec /bin/sleep " + tag;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process helper = new ProcessBuilder(java, "-cp", cp, LifelineHelper.class.getName(),
                LauncherFixture.binary().path().toString(), script, mode).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(helper.getInputStream()));
            String first = out.readLine();
            assertTrue(first != null && first.contains("Started"), "helper said: " + first);
            long launcherPid = Long.parseLong(first.split(" ")[1]);
            LauncherFixture.waitFor(() -> Files.exists(marker));
            // The marker comes before the program's exec and says nothing of the daemon's forks (a fixed pause
            // did, and a loaded machine could outlast it): wait for the tree the assertion names.
            LauncherFixture.waitFor(() -> LauncherFixture.tagged(tag).size() == 3);
            List<ProcessHandle> tree = LauncherFixture.tagged(tag);
            assertEquals(3, tree.size(), "program sleep, daemon shell's sleep and daemon sleep: " + tree);
            // The relay: the launcher's child that stayed in this (the host's) network namespace.
            Path hostNet = Files.readSymbolicLink(Path.of("/proc/self/ns/net"));
            List<Long> relay = !mode.equals("relay") ? List.of() : ProcessHandle.of(launcherPid).orElseThrow().children()
                    .map(ProcessHandle::pid)
                    .filter(pid -> {
                        try {
                            return Files.readSymbolicLink(Path.of("/proc/" + pid + "/ns/net")).equals(hostNet);
                        } catch (java.io.IOException e) {
                            return false;
                        }
                    }).toList();
            assertEquals(mode.equals("relay") ? 1 : 0, relay.size(), "relay processes (only init left the namespace): "
                    + relay);

            helper.destroyForcibly().waitFor();
            LauncherFixture.waitFor(() -> LauncherFixture.tagged(tag).isEmpty() && ProcessHandle.of(launcherPid).map(h -> !h.isAlive()).orElse(true));
            assertEquals(List.of(), LauncherFixture.tagged(tag));
            assertFalse(ProcessHandle.of(launcherPid).map(ProcessHandle::isAlive).orElse(false));
            for (long pid : relay) {
                assertFalse(Files.exists(Path.of("/proc/" + pid)), "the relay " + pid + " survived the supervisor");
            }
        } finally {
            helper.destroyForcibly();
            LauncherFixture.tagged(tag).forEach(ProcessHandle::destroyForcibly);
        }
    }
}
