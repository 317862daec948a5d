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
            assertTrue(p.planWithRequest(), "with its plan in the request");
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

    /**
     * The child forked ahead serves the next launch: launch A (environment, working directory, an extra
     * descriptor, no Landlock, still running) and then launch B (another environment and directory, Landlock
     * handling file writes with no grant) on the child the zygote had forked while A ran. B sees nothing of A,
     * and B's boundary is in force: the file A appended to is unchanged byte for byte by B's attempt.
     */
    @Test
    void theChildForkedAheadCarriesNothingOfTheLaunchBefore() throws Exception {
        ZygoteSupply ahead = new ZygoteSupply(binaryPath(), System::nanoTime, true);
        try {
            childAheadCarriesNothing(ahead);
        } finally {
            ahead.close();
        }
    }

    private LauncherProcess start(PlanMessage plan, String name, ZygoteSupply supply) throws IOException {
        LaunchOptions opts = LaunchOptions.inherit().withStdio(Redirect.from(new java.io.File("/dev/null")),
                Redirect.to(dir.resolve(name + ".out").toFile()), Redirect.to(dir.resolve(name + ".err").toFile()));
        return LauncherProcess.start(binaryPath(), plan, opts.withZygote(Optional.of(supply)));
    }

    private void childAheadCarriesNothing(ZygoteSupply zygote) throws Exception {
        Path victim = dir.resolve("victim"), ready = dir.resolve("a-ready"), aFacts = dir.resolve("a-facts");
        Files.createDirectories(dir.resolve("a-cwd"));
        Files.createDirectories(dir.resolve("b-cwd"));
        Files.writeString(victim, "start\n");
        String tag = LauncherFixture.newTag();
        PlanMessage a = LauncherFixture.sh("exec 7>" + dir.resolve("held") + "; echo a >> " + victim + "; " + facts(aFacts)
                + "; echo > " + ready + "; exec /bin/sleep " + tag).env("A_ONLY", "secret-of-a")
                .cwd(dir.resolve("a-cwd").toString()).build();
        try (LauncherProcess pa = start(a, "a", zygote)) {
            assertInstanceOf(StartOutcome.Started.class, pa.awaitStart(), pa.transcript().toString());
            assertTrue(pa.forked());
            LauncherFixture.waitFor(() -> Files.exists(ready));
            String aSaw = Files.readString(aFacts);
            // The control: A had its own facts to leak, and without Landlock its write went through.
            assertTrue(aSaw.contains("fd 7") && aSaw.contains("A_ONLY=secret-of-a") && aSaw.contains("cwd " + dir.resolve("a-cwd")),
                    aSaw);
            assertEquals("start\na\n", Files.readString(victim));
            ProcessHandle z = ProcessHandle.of(zygote.pid().orElseThrow()).orElseThrow();
            LauncherFixture.waitFor(() -> spares(z, pa.pid()).size() == 1);
            List<Long> spare = spares(z, pa.pid());
            assertEquals(1, spare.size(), "one child forked ahead besides A's launcher: " + spare);

            // B: write-file access handled by Landlock with no rule granting it, so the append must fail.
            PlanMessage b = LauncherFixture.sh("for f in /proc/self/fd/*; do echo fd ${f##*/}; done; tr '\\0' '\\n' < /proc/self/environ;"
                    + " echo cwd $(pwd); if echo b >> " + victim + "; then echo wrote; else echo denied; fi")
                    .env("B_ONLY", "of-b").cwd(dir.resolve("b-cwd").toString()).landlock(0x2, 0, 0).build();
            try (LauncherProcess pb = start(b, "b", zygote)) {
                assertEquals(new ExitOutcome.Exited(0), pb.waitFor(), pb.transcript().toString());
                assertTrue(pb.forked() && pb.planWithRequest());
                assertEquals(spare.get(0), pb.pid(), "B ran on the child forked ahead of its request");
            }
            String bSaw = Files.readString(dir.resolve("b.out"));
            assertTrue(bSaw.contains("B_ONLY=of-b") && bSaw.contains("cwd " + dir.resolve("b-cwd")) && bSaw.contains("denied"), bSaw);
            assertFalse(bSaw.contains("A_ONLY") || bSaw.contains("fd 7") || bSaw.contains("a-cwd") || bSaw.contains("wrote"), bSaw);
            assertEquals("start\na\n", Files.readString(victim), "B's boundary kept the file byte for byte");
        } finally {
            LauncherFixture.tagged(tag).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** The zygote's children other than {@code launcher}: the child it keeps forked ahead. */
    private static List<Long> spares(ProcessHandle zygote, long launcher) {
        return zygote.children().map(ProcessHandle::pid).filter(p -> p != launcher).toList();
    }

    /** Without the child ahead ({@code no-spare}, the default) the zygote forks at the request and holds no child waiting. */
    @Test
    void withoutTheChildAheadTheZygoteForksAtTheRequest() throws Exception {
        ZygoteSupply plain = new ZygoteSupply(binaryPath(), System::nanoTime, false);
        try {
            LaunchOptions opts = LaunchOptions.inherit().withStdio(Redirect.from(new java.io.File("/dev/null")),
                    Redirect.to(dir.resolve("p.out").toFile()), Redirect.to(dir.resolve("p.err").toFile()));
            try (LauncherProcess p = LauncherProcess.start(binaryPath(), LauncherFixture.sh("echo plain").build(),
                    opts.withZygote(Optional.of(plain)))) {
                assertEquals(new ExitOutcome.Exited(0), p.waitFor(), p.transcript().toString());
                assertTrue(p.forked() && p.planWithRequest());
            }
            assertEquals("plain\n", Files.readString(dir.resolve("p.out")));
            ProcessHandle z = ProcessHandle.of(plain.pid().orElseThrow()).orElseThrow();
            LauncherFixture.waitFor(() -> z.children().findAny().isEmpty());
            assertEquals(0, z.children().count(), "no child waits in a zygote started without one ahead");
        } finally {
            plain.close();
        }
    }

    /** A zygote that cannot start is not tried at every launch: a second after the failure, then doubling. */
    @Test
    void aZygoteThatCannotStartIsRetriedOnlyAfterABackOff() throws Exception {
        Path link = dir.resolve("launcher");
        Files.createSymbolicLink(link, Path.of("/bin/false")); // exits at once: it never connects
        long[] now = {0};
        ZygoteSupply s = new ZygoteSupply(link, () -> now[0], true);
        try {
            assertEquals(null, s.current());
            assertEquals(1, s.attempts());
            now[0] += ZygoteSupply.FIRST_BACKOFF_NANOS - 1;
            assertEquals(null, s.current(), "within the back-off: launchers start directly");
            assertEquals(1, s.attempts(), "and no start was attempted");
            now[0] += 1;
            assertEquals(null, s.current());
            assertEquals(2, s.attempts(), "the back-off over: tried again");
            now[0] += ZygoteSupply.FIRST_BACKOFF_NANOS;
            assertEquals(null, s.current());
            assertEquals(2, s.attempts(), "the back-off doubled after the second failure");
            // Control: the same supply with a launcher that can serve starts a zygote at the next try.
            Files.delete(link);
            Files.createSymbolicLink(link, binaryPath());
            now[0] += ZygoteSupply.FIRST_BACKOFF_NANOS;
            assertTrue(s.current() != null, "the zygote started once the back-off was over");
            assertEquals(3, s.attempts());
            assertTrue(s.pid().isPresent());
        } finally {
            s.close();
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
