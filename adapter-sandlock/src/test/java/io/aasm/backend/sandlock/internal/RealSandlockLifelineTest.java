package io.aasm.backend.sandlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole sandlock tree dies with its supervisor however the supervisor dies: SIGKILL of a real
 * JVM leaves no process of the tree (a setsid daemon included), no guard and no cgroup. When the guard
 * is killed together with the JVM, the daemon outlives both (the control), and the next start of the
 * backend reclaims the left-over cgroup and kills it. Survivors are counted by a unique {@code sleep}
 * argument, so no other process is ever mistaken for one.
 */
class RealSandlockLifelineTest {
    private static final Pattern GUARD = Pattern.compile(
            "guard pid (\\d+), (?:cgroup (\\S+)|no cgroup), sandbox (\\S+), sandlock pid (\\d+)");
    /** Sandlock 0.8.6 keeps a directory per sandbox here; a killed sandlock leaves it behind. */
    private static Path stateDir(String name) throws IOException {
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        return Path.of("/dev/shm", "sandlock-" + uid, name);
    }

    @TempDir
    Path dir;

    private String tag;
    private Process helper;

    @BeforeEach
    void needSandlock() {
        tag = null;
        Fixtures.realOrCannotHost(dir, Path.of("/sys")).deactivate();
        tag = "4" + ThreadLocalRandom.current().nextInt(100_000, 999_999) + "." + ThreadLocalRandom.current()
                .nextInt(1000, 9999);
    }

    @AfterEach
    void cleanUp() {
        if (helper != null) {
            helper.destroyForcibly();
        }
        if (tag != null) {
            tagged().forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** The program sleeps; before that it starts a setsid daemon (double fork) that sleeps too. */
    private String script(Path marker) {
        return "/usr/bin/setsid /bin/sh -c '/bin/sleep " + tag + " & /bin/sleep " + tag + "' </dev/null >/dev/null"
                + " 2>&1 & /bin/sleep 0.3; echo up > " + marker + "; exec /bin/sleep " + tag;
    }

    private Matcher startHelper(Path sysRoot) throws Exception {
        Path marker = dir.resolve("up");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        helper = new ProcessBuilder(java, "-cp", cp, LifelineHelper.class.getName(),
                Path.of("target", "real-sandlock-probe-cache").toAbsolutePath().toString(), sysRoot.toString(),
                script(marker)).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(helper.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        Matcher m = GUARD.matcher(line == null ? "" : line);
        assertTrue(m.find(), "helper said: " + line);
        waitFor(() -> Files.exists(marker));
        waitFor(() -> tagged().size() == 3);
        assertEquals(3, tagged().size(), "program sleep, daemon shell's sleep and daemon sleep: " + tagged());
        return m;
    }

    @Test
    void sigkillOfTheSupervisingJvmLeavesNothing() throws Exception {
        supervisorKilled(Path.of("/sys"));
    }

    @Test
    void sigkillOfTheSupervisingJvmLeavesNothingWithTheSubReaperAlone() throws Exception {
        supervisorKilled(dir.resolve("no-sys")); // no cgroup: the guard's sub-reaper walk alone
    }

    private void supervisorKilled(Path sysRoot) throws Exception {
        Matcher m = startHelper(sysRoot);
        long guard = Long.parseLong(m.group(1));
        Optional<Path> cgroup = Optional.ofNullable(m.group(2)).map(Path::of);
        long sandlock = Long.parseLong(m.group(4));
        Path state = stateDir(m.group(3));
        assertTrue(Files.isDirectory(state), "sandlock's state directory while it runs: " + state);
        helper.destroyForcibly().waitFor();
        waitFor(() -> tagged().isEmpty() && !alive(guard) && !alive(sandlock));
        assertEquals(List.of(), tagged(), "survivors of the supervisor's SIGKILL");
        assertFalse(alive(guard), "the guard outlived its supervisor");
        assertFalse(alive(sandlock), "sandlock outlived its supervisor");
        cgroup.ifPresent(c -> {
            waitFor(() -> !Files.exists(c));
            assertFalse(Files.exists(c), "the launch's cgroup was left behind: " + c);
        });
        waitFor(() -> !Files.exists(state));
        assertFalse(Files.exists(state), "the killed sandlock's state directory was left behind: " + state);
    }

    @Test
    void whenTheGuardDiesTooTheNextStartReclaimsTheCgroup() throws Exception {
        Assumptions.assumeTrue(new io.aasm.backend.sandlock.internal.supervise.Cgroups(Path.of("/sys"),
                Path.of("/proc"), null).base().isPresent(), "environment cannot host this check: no cgroup v2 directory"
                + " this user may create groups in");
        Matcher m = startHelper(Path.of("/sys"));
        long guard = Long.parseLong(m.group(1));
        Path cgroup = Path.of(m.group(2));
        Path state = stateDir(m.group(3));
        // The supervisor and its guard die at once (as a killed process group would). Both are stopped first:
        // a supervisor still running when its guard died would see the lifeline end and tear the tree down
        // itself, which is the normal path, not the one this test is about.
        stop(helper.pid());
        stop(guard);
        ProcessHandle.of(guard).ifPresent(ProcessHandle::destroyForcibly);
        helper.destroyForcibly().waitFor();
        waitFor(() -> !alive(guard) && tagged().size() < 3);
        List<ProcessHandle> survivors = tagged();
        assertFalse(survivors.isEmpty(), "control: with the guard killed too, the setsid daemon must outlive both"
                + " until the next start");
        assertTrue(Files.exists(cgroup), "control: the group is left behind");
        assertTrue(Files.exists(state), "control: the killed sandlock's state directory is left behind");
        SandlockBackend next = new SandlockBackend(Fixtures.settings(java.util.Map.of(), dir.resolve("c2"),
                Path.of("/sys"), false));
        next.deactivate();
        waitFor(() -> tagged().isEmpty() && !Files.exists(cgroup));
        assertEquals(List.of(), tagged(), "survivors after the next start's reclaim");
        assertFalse(Files.exists(cgroup), "the next start did not remove the left-over group");
        assertFalse(Files.exists(state), "the next start did not remove sandlock's left-over state directory");
    }

    private List<ProcessHandle> tagged() {
        List<ProcessHandle> out = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(p -> {
            try {
                String cmd = Files.readString(Path.of("/proc/" + p.pid() + "/cmdline")).replace('\0', ' ');
                if (cmd.contains(tag) && cmd.startsWith("/bin/sleep")) {
                    out.add(p);
                }
            } catch (IOException e) {
                // gone meanwhile
            }
        });
        return out;
    }

    private static void stop(long pid) throws Exception {
        assertEquals(0, new ProcessBuilder("/bin/kill", "-STOP", Long.toString(pid)).inheritIO().start().waitFor(),
                "could not stop " + pid);
    }

    private static boolean alive(long pid) {
        return RealSandlockSupervisionTest.alive(pid);
    }

    private static void waitFor(BooleanSupplier condition) {
        for (int i = 0; i < 1000 && !condition.getAsBoolean(); i++) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
