package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pre-forked launcher (PROTOCOL.md, "Zygote"): a forked launcher does what a fresh one does, a launch leaves
 * nothing the next one sees (compared with the same launch from a freshly executed launcher), the zygote's death
 * never fails a launch, and it ends with its supervisor's end.
 */
class ZygoteTest {
    @TempDir
    Path dir;

    private final ZygoteSupply zygote = new ZygoteSupply(binaryPath());

    @AfterEach
    void end() {
        zygote.close();
    }

    private static Path binaryPath() {
        try {
            return LauncherFixture.binary().path();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private LauncherProcess start(PlanMessage plan, String name, boolean forked) throws IOException {
        LaunchOptions opts = LaunchOptions.inherit().withStdio(Redirect.from(new java.io.File("/dev/null")),
                Redirect.to(dir.resolve(name + ".out").toFile()), Redirect.to(dir.resolve(name + ".err").toFile()));
        return LauncherProcess.start(binaryPath(), plan, opts.withZygote(forked ? Optional.of(zygote) : Optional.empty()));
    }

    @Test
    void aForkedLauncherRunsThePlanAndReportsItsExit() throws Exception {
        try (LauncherProcess p = start(LauncherFixture.sh("echo hi; exit 7").build(), "a", true)) {
            assertInstanceOf(StartOutcome.Started.class, p.awaitStart(), p.transcript().toString());
            assertTrue(p.forked(), "the zygote forked this launcher");
            assertEquals(new ExitOutcome.Exited(7), p.waitFor());
            assertEquals(7, p.launcherExitCode(), "the zygote reaped the launcher and passed its status on");
            assertFalse(p.signal(LauncherHandle.SIGTERM), "no signal once the launcher is reaped");
        }
        assertEquals("hi\n", Files.readString(dir.resolve("a.out")));
    }

    /** What a program sees of its own process: descriptors, environment, working directory. */
    private static String facts(Path out) {
        return "for f in /proc/self/fd/*; do echo fd ${f##*/}; done > " + out + "; tr '\\0' '\\n' < /proc/self/environ >> "
                + out + "; echo cwd $(pwd) >> " + out;
    }

    @Test
    void aLaunchLeavesNothingTheNextOneSees() throws Exception {
        Path held = dir.resolve("held"), aFacts = dir.resolve("a-facts"), ready = dir.resolve("a-ready");
        Files.createDirectories(dir.resolve("a-cwd"));
        String tag = LauncherFixture.newTag();
        // Launch A: its own environment and working directory, an extra descriptor, and it stays running
        // while B starts (the most a launch could leave behind).
        PlanMessage a = LauncherFixture.sh("exec 7>" + held + "; " + facts(aFacts) + "; echo > " + ready
                + "; exec /bin/sleep " + tag).env("A_ONLY", "secret-of-a").cwd(dir.resolve("a-cwd").toString()).build();
        try (LauncherProcess pa = start(a, "a", true)) {
            assertInstanceOf(StartOutcome.Started.class, pa.awaitStart(), pa.transcript().toString());
            LauncherFixture.waitFor(() -> Files.exists(ready));
            String aSaw = Files.readString(aFacts);
            // The control: A's own facts are there to leak.
            assertTrue(aSaw.contains("fd 7") && aSaw.contains("A_ONLY=secret-of-a") && aSaw.contains("cwd " + dir.resolve("a-cwd")),
                    aSaw);
            long zpid = zygote.pid().orElseThrow();
            List<String> zygoteFds = fds(zpid);
            assertEquals(List.of("0", "1", "2", "3", "4"), zygoteFds, "stdio, its socket, its signal descriptor: nothing of A");
            assertEquals(0, Files.readAllBytes(Path.of("/proc/" + zpid + "/environ")).length, "the zygote's environment is empty");

            Path forkedFacts = dir.resolve("b-forked"), freshFacts = dir.resolve("b-fresh");
            List<String> inventories = new java.util.ArrayList<>();
            for (boolean forked : new boolean[] {true, false}) {
                try (LauncherProcess pb = start(LauncherFixture.sh(facts(forked ? forkedFacts : freshFacts)).build(),
                        forked ? "b1" : "b2", forked)) {
                    assertEquals(new ExitOutcome.Exited(0), pb.waitFor(), pb.transcript().toString());
                    assertEquals(forked, pb.forked());
                    inventories.add(pb.transcript().stream().filter(l -> l.startsWith("fds:")).findFirst().orElse(""));
                }
            }
            assertEquals(inventories.get(1), inventories.get(0), "the launcher inherited what a fresh one inherits");
            assertEquals("fds:kept=0,1,2;sealed=;residual=;complete=1", inventories.get(0));
            String bForked = Files.readString(forkedFacts);
            assertFalse(bForked.contains("A_ONLY") || bForked.contains("fd 7") || bForked.contains("a-cwd"), bForked);
            assertEquals(Files.readString(freshFacts), bForked, "B forked sees what B from a fresh launcher sees");
            assertEquals(zygoteFds, fds(zpid), "the zygote opened nothing for B either");
        } finally {
            LauncherFixture.tagged(tag).forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static List<String> fds(long pid) throws IOException {
        try (var s = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return s.map(p -> p.getFileName().toString()).sorted((x, y) -> Integer.parseInt(x) - Integer.parseInt(y)).toList();
        }
    }

    @Test
    void killingTheZygoteBetweenLaunchesNeverFailsTheNext() throws Exception {
        try (LauncherProcess p = start(LauncherFixture.sh("exit 0").build(), "a", true)) {
            assertEquals(new ExitOutcome.Exited(0), p.waitFor(), p.transcript().toString());
        }
        long first = zygote.pid().orElseThrow();
        ProcessHandle.of(first).orElseThrow().destroyForcibly();
        LauncherFixture.waitFor(() -> ProcessHandle.of(first).map(h -> !h.isAlive()).orElse(true));
        try (LauncherProcess p = start(LauncherFixture.sh("echo second").build(), "b", true)) {
            assertInstanceOf(StartOutcome.Started.class, p.awaitStart(), p.transcript().toString());
            assertEquals(new ExitOutcome.Exited(0), p.waitFor(), p.transcript().toString());
            assertTrue(p.forked(), "a new zygote forked the second launcher");
        }
        assertEquals("second\n", Files.readString(dir.resolve("b.out")));
        assertNotEquals(first, zygote.pid().orElseThrow());
    }

    @Test
    void closingTheSupervisorsEndEndsTheZygote() throws Exception {
        try (LauncherProcess p = start(LauncherFixture.sh("exit 0").build(), "a", true)) {
            p.waitFor();
        }
        ProcessHandle z = ProcessHandle.of(zygote.pid().orElseThrow()).orElseThrow();
        assertTrue(z.isAlive());
        zygote.close();
        z.onExit().get(15, java.util.concurrent.TimeUnit.SECONDS);
        assertFalse(z.isAlive());
    }

    @Test
    void aSignalReachesTheForkedLauncherAndIsForwarded() throws Exception {
        Path ready = dir.resolve("ready");
        PlanMessage plan = LauncherFixture.sh("trap 'exit 3' TERM; echo > " + ready + "; while :; do /bin/sleep 0.05; done")
                .signals(PlanRecord.SignalTarget.PROGRAM, 15).build();
        try (LauncherProcess p = start(plan, "a", true)) {
            assertInstanceOf(StartOutcome.Started.class, p.awaitStart(), p.transcript().toString());
            LauncherFixture.waitFor(() -> Files.exists(ready));
            assertTrue(p.forked());
            p.terminate(true);
            assertEquals(new ExitOutcome.Exited(3), p.waitFor(), "SIGTERM went zygote -> launcher -> init -> program");
        }
    }

    @Test
    void aPipeForStdioStartsTheLauncherDirectly() throws Exception {
        LaunchOptions opts = LaunchOptions.inherit().withStdio(Redirect.PIPE, Redirect.PIPE, Redirect.PIPE)
                .withZygote(Optional.of(zygote));
        try (LauncherProcess p = LauncherProcess.start(binaryPath(), LauncherFixture.sh("exit 4").build(), opts)) {
            assertEquals(new ExitOutcome.Exited(4), p.waitFor());
            assertFalse(p.forked(), "a pipe to this JVM has no descriptor the zygote could be handed");
        }
        assertEquals(Optional.empty(), zygote.pid(), "and no zygote was started for it");
    }

    @Test
    void aZygoteServesOnlyItsParent() throws Exception {
        // The listener is this JVM, the zygote's parent a shell: the zygote must refuse to serve (exit 122).
        ZygoteCalls c = ZygoteCalls.INSTANCE;
        Path sock = dir.resolve("z");
        int l = c.socket(ZygoteCalls.AF_UNIX, ZygoteCalls.SOCK_SEQPACKET | ZygoteCalls.SOCK_CLOEXEC, 0);
        byte[] path = sock.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] addr = new byte[path.length + 3];
        addr[0] = ZygoteCalls.AF_UNIX;
        System.arraycopy(path, 0, addr, 2, path.length);
        assertEquals(0, c.bind(l, addr, addr.length));
        assertEquals(0, c.listen(l, 1));
        try {
            Process sh = new ProcessBuilder("/bin/sh", "-c", binaryPath() + " serve unix:" + sock + "; echo rc=$?")
                    .redirectError(Redirect.DISCARD).start();
            int fd = c.accept4(l, null, null, ZygoteCalls.SOCK_CLOEXEC);
            assertTrue(fd >= 0, "the zygote connected");
            String out = new String(sh.getInputStream().readAllBytes()).trim();
            assertEquals("rc=122", out, "a zygote whose parent is not its peer exits without serving");
            byte[] b = new byte[12];
            assertEquals(0, c.recv(fd, b, b.length, 0), "and said nothing");
            c.close(fd);
        } finally {
            c.close(l);
        }
    }
}
