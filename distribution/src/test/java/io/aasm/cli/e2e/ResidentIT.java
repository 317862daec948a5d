package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What only the resident path has: its socket, its peers, its clients' lifetimes and their parallelism. */
class ResidentIT {
    private static ResidentKernel kernel;

    @BeforeAll
    static void startKernel() throws Exception {
        // the kernel's own environment carries a marker no launch may see
        kernel = ResidentKernel.start(Map.of("AASM_KERNEL_ONLY", "leaked"));
    }

    @AfterAll
    static void stopKernel() throws Exception {
        kernel.close();
    }

    private static Aasm.Result run(Path cwd, Map<String, String> env, String... args) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.putAll(kernel.env());
        return Aasm.run(Aasm.DIST, cwd, all, args);
    }

    @Test
    void theKernelRunsTheProgramWithTheCallersEnvironmentAndDirectoryNeverItsOwn(@TempDir Path dir) throws Exception {
        Aasm.Result r = run(dir, Map.of("CALLER_ONLY", "mine"), "run", "exec", "--isolation", "none", "--",
                "sh", "-c", "echo \"$CALLER_ONLY/${AASM_KERNEL_ONLY:-unset}\"; pwd; echo $PPID");
        assertEquals(0, r.exit(), r.toString());
        String[] lines = r.out().split("\n");
        assertEquals("mine/unset", lines[0], r.toString());
        assertEquals(dir.toRealPath().toString(), lines[1], r.toString());
        // the program's parent is the resident kernel, not a JVM started for this call
        assertEquals(Long.toString(kernel.pid()), lines[2], r.toString());
        assertFalse(r.err().contains("running cold"), r.toString());
    }

    @Test
    void aConfinedLaunchBehavesAsOnTheColdPath(@TempDir Path dir) throws Exception {
        String[] cmd = {"run", "exec", "--isolation", "process", "--", "sh", "-c", "sh -c 'echo confined; exit 7'"};
        Aasm.Result resident = run(dir, Map.of("AASM_CLIENT", "on"), cmd);
        Aasm.Result cold = run(dir, Map.of("AASM_CLIENT", "off"), cmd);
        assertEquals(cold.exit(), resident.exit(), "cold:\n" + cold + "\nresident:\n" + resident);
        assertEquals(cold.out(), resident.out(), "cold:\n" + cold + "\nresident:\n" + resident);
        assertEquals(summary(cold), summary(resident), "cold:\n" + cold + "\nresident:\n" + resident);
        assertTrue(List.of(7, 125).contains(resident.exit()), resident.toString());
    }

    @Test
    void aDryRunPrintsExactlyWhatTheColdPathPrints(@TempDir Path dir) throws Exception {
        String[] cmd = {"run", "exec", "--isolation", "process", "--dry-run", "--report", "kv", "--", "/bin/true"};
        // the same caller environment on both paths (the preview lists its names)
        Aasm.Result resident = run(dir, Map.of("AASM_CLIENT", "on"), cmd);
        Aasm.Result cold = run(dir, Map.of("AASM_CLIENT", "off"), cmd);
        assertEquals(cold.exit(), resident.exit(), resident.toString());
        assertEquals(cold.out(), resident.out());
        assertTrue(resident.out().contains("--- execution isolation (machine-readable) ---"), resident.toString());
    }

    private static String summary(Aasm.Result r) {
        // the audit record id differs per launch by design
        return r.err().lines().filter(l -> l.startsWith("aasm: posture=")).findFirst().orElse("(none)")
                .replaceAll(" audit=\\S+", "");
    }

    @Test
    void theSocketIsTheUsersAloneAndItsDirectoryToo() throws Exception {
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(kernel.socket)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(kernel.runtimeDir)));
    }

    /**
     * Even with the file permissions opened up, another uid is refused by the kernel's SO_PEERCRED
     * check and nothing runs; the control (same command, same socket, owner's uid) runs.
     */
    @Test
    void anotherUserIsRefusedByPeerCredentials(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv"))
                        && "0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).strip()),
                "environment cannot host this check: switching to uid 65534 needs root and setpriv");
        ResidentKernel k = ResidentKernel.prepare();
        Path open = Files.createTempDirectory("aasm-peer");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path marker = open.resolve("ran");
        try {
            k.startHere(Map.of());
            Files.setPosixFilePermissions(k.runtimeDir, PosixFilePermissions.fromString("rwx--x--x"));
            Files.setPosixFilePermissions(k.socket, PosixFilePermissions.fromString("rw-rw-rw-"));
            List<String> cmd = List.of(Aasm.DIST.resolve("bin/aasm-client").toString(), "run", "exec", "--isolation",
                    "none", "--", "/bin/sh", "-c", "touch " + marker);
            ProcessBuilder pb = new ProcessBuilder(concat(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                    "--clear-groups"), cmd)).directory(open.toFile()).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("out").toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().putAll(k.env());
            Process p = pb.start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            String out = Files.readString(dir.resolve("out"));
            // The client itself never talks to another user's server (it runs cold, here without a cache).
            assertTrue(out.contains("not using the process serving " + k.socket + ": it runs as another user"), out);
            assertFalse(Files.exists(marker), "a refused peer's program ran");
            // The kernel's own check, for a client that does not check (the request sent by hand).
            ProcessBuilder raw = new ProcessBuilder(concat(List.of("/usr/bin/setpriv", "--reuid=65534",
                    "--regid=65534", "--clear-groups"), SocketAttacker.argv(k.socket, 'R', Aasm.DIST.toRealPath(),
                    List.of("run", "exec", "--isolation", "none", "--", "/bin/sh", "-c", "touch " + marker))))
                    .directory(open.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("raw").toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Process rp = raw.start();
            assertTrue(rp.waitFor(60, TimeUnit.SECONDS));
            String rawOut = Files.readString(dir.resolve("raw"));
            assertTrue(rawOut.contains("refused a connection from uid 65534"), rawOut);
            assertFalse(Files.exists(marker), "a refused peer's program ran");
            String requests = Files.readString(k.runtimeDir.resolve("aasm-requests.log"));
            assertTrue(requests.lines().anyMatch(l -> l.contains("\"event\":\"refused\",\"reason\":\"other_uid\"")
                    && l.contains("\"uid\":65534")), requests);
            Aasm.Result control = Aasm.run(Aasm.DIST, open, k.env(), "run", "exec", "--isolation", "none", "--",
                    "/bin/sh", "-c", "touch " + marker);
            assertEquals(0, control.exit(), control.toString());
            assertTrue(Files.exists(marker), control.toString());
        } finally {
            k.close();
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * The client is killed with SIGKILL (it cannot say goodbye): the kernel notices the connection end
     * and ends the tree. The marker is a grandchild found by its unique command line (inside a pid
     * namespace its own $$ would not name it out here).
     */
    @Test
    void aKilledClientTakesItsConfinedTreeWithIt(@TempDir Path dir) throws Exception {
        for (String isolation : List.of("none", "process")) {
            String seconds = Long.toString(300_000 + ProcessHandle.current().pid() % 1000 * 100 + isolation.length());
            Process client = Aasm.start(Aasm.DIST, dir, kernel.env(), "run", "exec", "--isolation", isolation, "--",
                    "sh", "-c", "sh -c 'sleep " + seconds + "; true'; true");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Optional<ProcessHandle> marker = Optional.empty();
            while (marker.isEmpty() && client.isAlive() && System.nanoTime() < deadline) {
                marker = ProcessHandle.allProcesses().filter(h -> h.info().arguments()
                        .map(a -> a.length == 1 && a[0].equals(seconds)).orElse(false)).findFirst();
                Thread.sleep(20);
            }
            assertTrue(marker.isPresent(), () -> isolation + ": the marker process never started");
            client.destroyForcibly().waitFor();
            ProcessHandle m = marker.get();
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (m.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertFalse(m.isAlive(), isolation + ": the confined tree outlived its killed client (pid " + m.pid() + ")");
        }
    }

    /**
     * A hundred thousand arguments (issue 13: 21.6 s in picocli and 4.2 GB) are refused by count at the
     * default limit before anything parses them; the control, ten thousand, runs.
     */
    @Test
    void aHundredThousandArgumentsAreRefusedByCountBeforeParsing(@TempDir Path dir) throws Exception {
        Path marker = dir.resolve("ran");
        List<String> args = new ArrayList<>(List.of(Aasm.DIST.resolve("bin/aasm-client").toString(), "run", "exec",
                "--isolation", "none", "--", "/bin/sh", "-c", "touch " + marker, "sh"));
        while (args.size() < 100_001) {
            args.add("x");
        }
        Aasm.Result refused = Aasm.command(dir, kernel.env(), args);
        assertEquals(125, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("too many arguments: 100000, at most 10000 (aasm.resident.max.args)"),
                refused.toString());
        assertFalse(Files.exists(marker), "a refused request ran");
        Aasm.Result control = Aasm.command(dir, kernel.env(), args.subList(0, 10_001));
        assertEquals(0, control.exit(), control.toString());
        assertTrue(Files.exists(marker), control.toString());
    }

    @Test
    void eightClientsAtOnceEachGetTheirOwnStatusAndOutput(@TempDir Path dir) throws Exception {
        List<Process> clients = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Path d = Files.createDirectories(dir.resolve("c" + i));
            dirs.add(d);
            // the first one is slow: nobody may wait for it
            clients.add(Aasm.start(Aasm.DIST, d, kernel.env(), "run", "exec", "--isolation", i % 2 == 0 ? "none" : "process",
                    "--", "sh", "-c", (i == 0 ? "sleep 3; " : "") + "echo client-" + i + "; exit " + (10 + i)));
        }
        for (int i = 0; i < 8; i++) {
            assertTrue(clients.get(i).waitFor(120, TimeUnit.SECONDS), "client " + i + " hung");
            Aasm.Result r = Aasm.result(clients.get(i), dirs.get(i));
            assertEquals(10 + i, r.exit(), "client " + i + ": " + r);
            assertEquals("client-" + i + "\n", r.out(), "client " + i + ": " + r);
        }
    }

    /**
     * The backend is named: "process" chose sandlock where one is installed (CI), which ends the tree gracefully
     * (SIGTERM), and aasm-native elsewhere, which relays SIGINT as itself; the test passed only where sandlock was.
     * aasm-native runs on every host these tests need, and the program must see the signal that was sent.
     */
    @Test
    void sigintToTheClientEndsAConfinedProgram(@TempDir Path dir) throws Exception {
        Path ready = dir.resolve("ready");
        Path got = dir.resolve("got");
        Process p = Aasm.start(Aasm.DIST, dir, kernel.env(), "run", "exec", "--isolation", "process",
                "--isolation-backend", "aasm-native", "--", "sh", "-c", "trap 'echo INT > " + got + "; exit 3' INT; "
                + "trap 'echo TERM > " + got + "; exit 4' TERM; : > " + ready + "; while :; do sleep 0.1; done");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(ready) && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(Files.exists(ready), "the program never started\n" + (p.isAlive() ? "" : Aasm.result(p, dir)));
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).inheritIO().start().waitFor();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client did not end after SIGINT");
        Aasm.Result r = Aasm.result(p, dir);
        assertEquals(3, r.exit(), r.toString());
        assertEquals("INT", Files.readString(got).strip(), "the program saw the signal the client got");
    }

    @Test
    void aRegularFileAsStdoutKeepsTheCallersOffset(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out.txt");
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "{ echo before; \"$AASM\" run exec --isolation none -- echo during;"
                + " echo after; } > " + out).directory(dir.toFile());
        pb.environment().putAll(kernel.env());
        pb.environment().put("AASM", Aasm.DIST.resolve("bin/aasm").toString());
        pb.environment().put("XDG_CACHE_HOME", Aasm.CACHE.toString());
        Process p = pb.redirectError(dir.resolve("err").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals("before\nduring\nafter\n", Files.readString(out), Files.readString(dir.resolve("err")));
    }

    /** The kernel's pre-forked launcher (aasm-native, PROTOCOL.md "Zygote"): its children named by `serve`. */
    private static List<Long> zygotes() throws Exception {
        return ProcessHandle.of(kernel.pid()).orElseThrow().children().filter(h -> {
            try {
                return new String(Files.readAllBytes(Path.of("/proc/" + h.pid() + "/cmdline"))).contains("\0serve\0");
            } catch (java.io.IOException e) {
                return false;
            }
        }).map(ProcessHandle::pid).toList();
    }

    private static final String FACTS = "for f in /proc/self/fd/*; do echo fd ${f##*/}; done; env | sort; echo cwd $(pwd)";

    @Test
    void aConfinedLaunchLeavesNothingTheNextOneSees(@TempDir Path dir) throws Exception {
        Path a = Files.createDirectories(dir.resolve("a")), b = Files.createDirectories(dir.resolve("b"));
        // Every read the facts need, and ONLY_A delegated: what A has to leave behind is really A's.
        Path policy = Files.writeString(dir.resolve("facts.yaml"), "apiVersion: aasm/v1\nkind: Policy\n"
                + "metadata: {name: zygote-facts}\nisolation: process\nfilesystem:\n  read: {allow: [/usr, /etc, /lib, "
                + "/lib64, /bin, /sbin, /proc, /dev, " + dir.toRealPath() + "]}\ncredentials: {delegate: [PATH, ONLY_A]}\n");
        String[] launch = {"run", "exec", "--policy", policy.toString(), "--isolation-backend", "aasm-native", "--", "sh", "-c"};
        Aasm.Result first = run(a, Map.of("ONLY_A", "secret-of-a"), concat(launch, "exec 7</dev/null; " + FACTS));
        assertEquals(0, first.exit(), first.toString());
        // The control: A's own descriptor, variable and directory are there to leak.
        assertTrue(first.out().contains("fd 7") && first.out().contains("ONLY_A=secret-of-a")
                && first.out().contains("cwd " + a.toRealPath()), first.toString());
        assertEquals(1, zygotes().size(), "aasm-native's launches fork from one zygote: " + zygotes());
        Aasm.Result second = run(b, Map.of(), concat(launch, FACTS));
        assertEquals(0, second.exit(), second.toString());
        assertTrue(second.out().contains("cwd " + b.toRealPath()), second.toString());
        assertFalse(second.out().contains("fd 7") || second.out().contains("ONLY_A") || second.out().contains(a.toString()),
                second.toString());
        List<String> fdsA = first.out().lines().filter(l -> l.startsWith("fd ") && !l.equals("fd 7")).toList();
        assertEquals(fdsA, second.out().lines().filter(l -> l.startsWith("fd ")).toList(), second.toString());
    }

    /**
     * A stopped kernel leaves no cgroup: neither its launches' (removed after their status, off the launch's path)
     * nor the fresh groups it made ahead for the next launches. Control: while it runs, those spares exist.
     */
    @Test
    void aStoppedKernelLeavesNoCgroupNotEvenTheOnesMadeAhead(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")) && (Files.isWritable(
                Path.of("/sys/fs/cgroup/unified")) || Files.exists(Path.of("/sys/fs/cgroup/cgroup.kill"))),
                "environment cannot host this check: needs root and a cgroup2 mount for per-launch groups");
        ResidentKernel own = ResidentKernel.start(Map.of("AASM_JAVA_OPTS",
                "-Daasm.native.cgroupSpares=4 -Daasm.native.teardownAfter=true")); // off by default
        long pid;
        String owner;
        try {
            pid = own.pid();
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            owner = "aasm-" + pid + "." + stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19] + "-";
            Aasm.Result r = Aasm.run(Aasm.DIST, dir, own.env(), "run", "exec", "--isolation", "process",
                    "--isolation-backend", "aasm-native", "--", "true");
            assertEquals(0, r.exit(), r.toString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (groups(owner) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(groups(owner) > 0, "control: the kernel keeps fresh groups made ahead");
        } finally {
            own.close();
        }
        ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(60, TimeUnit.SECONDS).join()); // it ended
        assertEquals(0, groups(owner), "no group named after the stopped kernel is left");
    }

    private static long groups(String owner) {
        return groups(Path.of("/sys/fs/cgroup"), 4, owner);
    }

    /** Walks by hand: other sessions' launch groups vanish during the walk (a Files.find would throw). */
    private static long groups(Path dir, int depth, String owner) {
        long n = 0;
        try (var entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (!Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                if (p.getFileName().toString().startsWith(owner)) {
                    n++;
                } else if (depth > 1 && !p.getFileName().toString().startsWith("aasm-")) {
                    n += groups(p, depth - 1, owner);
                }
            }
        } catch (java.io.IOException | java.nio.file.DirectoryIteratorException e) {
            // gone while walking: it held none of ours
        }
        return n;
    }

    private static String[] concat(String[] head, String last) {
        String[] all = java.util.Arrays.copyOf(head, head.length + 1);
        all[head.length] = last;
        return all;
    }

    @Test
    void aKilledLauncherZygoteNeverFailsTheNextLaunch(@TempDir Path dir) throws Exception {
        String[] cmd = {"run", "exec", "--isolation", "process", "--isolation-backend", "aasm-native", "--", "echo", "up"};
        Aasm.Result first = run(dir, Map.of(), cmd);
        assertEquals(0, first.exit(), first.toString());
        List<Long> before = zygotes();
        assertEquals(1, before.size(), "one zygote after an aasm-native launch: " + before);
        ProcessHandle z = ProcessHandle.of(before.get(0)).orElseThrow();
        z.destroyForcibly();
        z.onExit().get(30, TimeUnit.SECONDS);
        Aasm.Result second = run(dir, Map.of(), cmd);
        assertEquals(0, second.exit(), second.toString());
        assertEquals("up\n", second.out(), second.toString());
        assertTrue(second.err().contains("posture=READY"), second.toString());
        List<Long> after = zygotes();
        assertEquals(1, after.size(), "started again: " + after);
        assertFalse(after.contains(before.get(0)), after.toString());
    }
}
