package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.evidence.DescriptorInventory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Valid plans: exec, status passthrough, exact environment, descriptors, namespaces, Landlock, seccomp. */
class LauncherRunTest {
    @TempDir
    Path dir;

    private static final EnumSet<PlanRecord.Namespace> ALL_NS = EnumSet.allOf(PlanRecord.Namespace.class);

    @Test
    void execsTrueAndReportsSetupTimeAndDescriptors() throws IOException {
        LauncherFixture.Result r = LauncherFixture.run(
                PlanMessage.builder().program("/bin/true").argv("true").keepFds(0, 1, 2).build(), dir);
        StartOutcome.Started s = assertInstanceOf(StartOutcome.Started.class, r.start(), r.toString());
        assertTrue(s.setupNanos() > 0 && s.installNanos() > 0 && s.installNanos() <= s.setupNanos(), s.toString());
        assertEquals(new ExitOutcome.Exited(0), r.exit());
        assertEquals(0, r.code());
        DescriptorInventory fds = r.process().descriptors().orElseThrow();
        assertEquals(List.of(0, 1, 2), fds.kept());
        assertTrue(fds.clean(), fds.toString());
    }

    @Test
    void runsWithoutAJvmFromAShellWithFileDescriptors() throws Exception {
        // fd mode: any supervisor can drive the launcher; a regular-file plan gives no lifeline.
        Path plan = Files.write(dir.resolve("plan.bin"), PlanEncoder.encode(LauncherFixture.sh("exit 7").build()));
        Path status = dir.resolve("status.txt");
        Process p = new ProcessBuilder("/bin/sh", "-c", "exec \"$0\" fd:3,4 3<\"$1\" 4>\"$2\"",
                LauncherFixture.binary().path().toString(), plan.toString(), status.toString()).inheritIO().start();
        assertEquals(7, p.waitFor());
        List<String> all = Files.readAllLines(status);
        // the stage stamps (where the time goes) come before `started` and the exit line: every one is a time
        assertTrue(all.get(1).matches("stages:start=\\d+,plan=\\d+,namespaces=\\d+,init=\\d+,landlock=\\d+,cgroups=\\d+,"
                + "preexec=\\d+"), all.toString());
        assertTrue(all.get(4).matches("ended:exited=\\d+,reaped=\\d+"), all.toString());
        List<String> lines = all.stream().filter(l -> !l.startsWith("stages:") && !l.startsWith("ended:")).toList();
        assertEquals(4, lines.size(), all.toString());
        assertTrue(lines.get(1).startsWith("started:"), lines.toString());
        // This plan asks for nothing: as root the program keeps its capabilities, and says so.
        assertTrue(lines.get(2).startsWith("authority:CapInh="), lines.toString());
        assertEquals("exit:code:7", lines.get(3));
    }

    @Test
    void passesExitCodeThrough() throws IOException {
        LauncherFixture.Result r = LauncherFixture.run(LauncherFixture.sh("/bin/sh -c 'exit 7'; exit $?").build(), dir);
        assertEquals(new ExitOutcome.Exited(7), r.exit(), r.toString());
        assertEquals(7, r.code());
    }

    @Test
    void reportsDeathBySignalAs128PlusN() throws IOException {
        LauncherFixture.Result r = LauncherFixture.run(LauncherFixture.sh("kill -TERM $$").build(), dir);
        assertEquals(new ExitOutcome.Signalled(15), r.exit(), r.toString());
        assertEquals(143, r.code());
    }

    @Test
    void reportsExecFailureOfAMissingProgram() throws IOException {
        LauncherFixture.Result r = LauncherFixture.run(
                PlanMessage.builder().program("/nonexistent/prog").argv("prog").keepFds(0, 1, 2).build(), dir);
        StartOutcome.ExecFailed f = assertInstanceOf(StartOutcome.ExecFailed.class, r.start(), r.toString());
        assertEquals(StartOutcome.ExecFailed.ENOENT, f.errno());
        assertEquals(127, f.shellStatus());
        assertEquals(127, r.code());
        assertEquals(new ExitOutcome.NeverStarted(f), r.exit());
    }

    @Test
    void reportsExecFailureOfANonExecutable() throws IOException {
        Path file = Files.writeString(dir.resolve("data"), "not a program");
        LauncherFixture.Result r = LauncherFixture.run(
                PlanMessage.builder().program(file.toString()).argv("data").keepFds(0, 1, 2).build(), dir);
        StartOutcome.ExecFailed f = assertInstanceOf(StartOutcome.ExecFailed.class, r.start(), r.toString());
        assertEquals(StartOutcome.ExecFailed.EACCES, f.errno());
        assertEquals(126, r.code());
    }

    @Test
    void environmentIsExactlyThePlans() throws IOException {
        Path out = dir.resolve("env.txt");
        // PWD is in the plan because the shell would otherwise add it; nothing else may appear.
        PlanMessage plan = LauncherFixture.sh("/bin/sh -c '/usr/bin/env > " + out + "'").cwd(dir.toString())
                .env("PWD", dir.toString()).env("AASM_A", "one two").env("EMPTY", "").build();
        LauncherFixture.Result r = LauncherFixture.run(plan, dir);
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        List<String> lines = Files.readAllLines(out).stream().sorted().toList();
        assertEquals(List.of("AASM_A=one two", "EMPTY=", "PWD=" + dir), lines);
    }

    @Test
    void keptDescriptorsStayAndOthersAreSealed() throws IOException {
        Path out = dir.resolve("fds.txt");
        String stderrFile = dir.resolve("stderr").toString();
        String script = "/bin/sh -c 'ls -l /proc/self/fd/ > " + out + "'";
        // The JVM starts the launcher with fds 0-2 only; dropping 2 from the keep list seals stderr.
        LauncherFixture.Result r = LauncherFixture.run(PlanMessage.builder().program("/bin/sh")
                .argv("sh", "-c", script).keepFds(0, 1).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        DescriptorInventory fds = r.process().descriptors().orElseThrow();
        assertEquals(List.of(0, 1), fds.kept());
        assertEquals(List.of(2), fds.sealed());
        assertFalse(Files.readString(out).contains(stderrFile), Files.readString(out));
        // Control: kept, the grandchild still holds the supervisor's stderr.
        LauncherFixture.Result c = LauncherFixture.run(LauncherFixture.sh(script).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), c.exit(), c.toString());
        assertTrue(Files.readString(out).contains(stderrFile), Files.readString(out));
    }

    @Test
    void pidNamespaceHidesHostProcesses() throws IOException {
        Path out = dir.resolve("ns.txt");
        String script = "/bin/sh -c 'ls /proc | grep -c \"^[0-9]\" > " + out + "'";
        PlanMessage plan = LauncherFixture.sh(script).namespaces(ALL_NS).userMap(0, 0, 0, 0).mountProc().build();
        LauncherFixture.Result r = LauncherFixture.run(plan, dir);
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        // init, the program, the inner sh, and ls/grep: a handful, not the host's hundreds.
        int inside = Integer.parseInt(Files.readString(out).trim());
        assertTrue(inside <= 6, "processes visible inside: " + inside);
        // Control: the same listing without the pid namespace sees the host's processes.
        LauncherFixture.Result c = LauncherFixture.run(LauncherFixture.sh(script).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), c.exit(), c.toString());
        assertTrue(Integer.parseInt(Files.readString(out).trim()) > 6);
    }

    @Test
    void theProgramCannotReadOrTraceTheLauncherNextToIt() throws IOException {
        Path out = dir.resolve("peek.txt");
        // In the pid namespace, pid 1 is the launcher's init, outside every restriction but the namespaces.
        String script = "/bin/sh -c 'cat /proc/1/environ > " + out + " 2>&1; echo rc=$? >> " + out
                + "; cat /proc/self/environ > /dev/null; echo self=$? >> " + out + "'";
        LauncherFixture.Result r = LauncherFixture.run(LauncherFixture.sh(script).namespaces(ALL_NS).userMap(0, 0, 0, 0)
                .mountProc().env("SECRET_FOR_PROGRAM", "x").build(), dir);
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        List<String> lines = Files.readAllLines(out);
        assertTrue(lines.get(0).contains("Permission denied"), lines.toString());
        assertEquals(List.of("rc=1", "self=0"), lines.subList(1, 3), "control: the program reads its own environ");
    }

    @Test
    void networkNamespaceHasOnlyLoopbackAndItIsUp() throws IOException {
        Path out = dir.resolve("net.txt");
        String py = "import socket; s=socket.socket(); s.bind((\\\"127.0.0.1\\\",0)); s.listen(); "
                + "c=socket.create_connection(s.getsockname()); print(\\\"connected\\\")";
        String script = "/bin/sh -c \"tail -n +3 /proc/net/dev | wc -l > " + out + "; /usr/bin/python3 -c '" + py
                + "' >> " + out + "\"";
        EnumSet<PlanRecord.Namespace> ns = EnumSet.of(PlanRecord.Namespace.USER, PlanRecord.Namespace.NET);
        LauncherFixture.Result r = LauncherFixture.run(LauncherFixture.sh(script).namespaces(ns).userMap(0, 0, 0, 0)
                .loopbackUp().build(), dir);
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        assertEquals(List.of("1", "connected"), Files.readAllLines(out).stream().map(String::trim).toList());
        // Control: without LOOPBACK_UP the same connection fails (lo is down in a new namespace).
        LauncherFixture.Result c = LauncherFixture.run(LauncherFixture.sh(script).namespaces(ns).userMap(0, 0, 0, 0)
                .build(), dir);
        assertEquals(new ExitOutcome.Exited(1), c.exit(), c.toString());
        assertEquals(List.of("1"), Files.readAllLines(out).stream().map(String::trim).toList());
    }

    @Test
    void landlockDeniesWriteOutsideTheGrantWithControl() throws IOException {
        Path granted = Files.createDirectory(dir.resolve("granted"));
        Path other = Files.createDirectory(dir.resolve("other"));
        Path victim = Files.writeString(other.resolve("victim"), "original");
        long readAll = 0xffffL & ~(2L | 16 | 32 | 64 | 128 | 256 | 512 | 1024 | 2048 | 4096 | 16384);
        String script = "/bin/sh -c 'echo changed > " + victim + "; echo written > " + granted.resolve("f") + "'";
        PlanMessage plan = LauncherFixture.sh(script).noNewPrivs().landlock(0xffff, 0, 0).landlockPath(readAll, "/")
                .landlockPath(0xffff, granted.toString()).landlockPath(0xffff, "/dev").build();
        LauncherFixture.Result r = LauncherFixture.run(plan, dir);
        assertInstanceOf(StartOutcome.Started.class, r.start(), r.toString());
        assertEquals("original", Files.readString(victim), "denied write left the file byte for byte");
        assertEquals("written\n", Files.readString(granted.resolve("f")), "control: the granted write happened");
    }

    @Test
    void seccompFilterDeniesMkdirWithControl() throws IOException {
        Path denied = dir.resolve("denied"), allowed = dir.resolve("allowed");
        String script = "/bin/sh -c '/bin/mkdir %s'";
        LauncherFixture.Result r = LauncherFixture.run(LauncherFixture.sh(script.formatted(denied)).noNewPrivs()
                .seccomp(0, denyMkdir()).build(), dir);
        assertInstanceOf(StartOutcome.Started.class, r.start(), r.toString());
        assertFalse(Files.exists(denied));
        LauncherFixture.Result c = LauncherFixture.run(LauncherFixture.sh(script.formatted(allowed)).noNewPrivs().build(), dir);
        assertEquals(new ExitOutcome.Exited(0), c.exit(), c.toString());
        assertTrue(Files.isDirectory(allowed));
    }

    @Test
    void programPolicyDoesNotConstrainTheSupervisor() throws IOException {
        // Before/after: the JVM can still write where the program could not.
        Path f = dir.resolve("after");
        LauncherFixture.run(LauncherFixture.sh("true").noNewPrivs().landlock(0xffff, 0, 0).landlockPath(0xffff, "/usr")
                .build(), dir);
        Files.writeString(f, "ok");
        assertEquals("ok", Files.readString(f));
    }

    /** x86_64-only cBPF: mkdir(83) and mkdirat(258) fail with EPERM; other arches are killed. */
    static byte[] denyMkdir() {
        ByteBuffer b = ByteBuffer.allocate(8 * 8).order(ByteOrder.LITTLE_ENDIAN);
        insn(b, 0x20, 0, 0, 4); // ld arch
        insn(b, 0x15, 1, 0, 0xC000003E); // jeq x86_64
        insn(b, 0x06, 0, 0, 0x80000000); // ret kill_process
        insn(b, 0x20, 0, 0, 0); // ld nr
        insn(b, 0x15, 2, 0, 83); // jeq mkdir -> errno
        insn(b, 0x15, 1, 0, 258); // jeq mkdirat -> errno
        insn(b, 0x06, 0, 0, 0x7FFF0000); // ret allow
        insn(b, 0x06, 0, 0, 0x00050000 | 1); // ret errno(EPERM)
        return b.array();
    }

    private static void insn(ByteBuffer b, int code, int jt, int jf, int k) {
        b.putShort((short) code).put((byte) jt).put((byte) jf).putInt(k);
    }
}
