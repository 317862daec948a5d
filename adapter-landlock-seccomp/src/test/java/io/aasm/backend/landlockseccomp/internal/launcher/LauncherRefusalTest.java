package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad plans are refused with exit 121 and a reason token, and nothing of them is applied. */
class LauncherRefusalTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] le32(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    private static PlanMessage.Builder trueplan() {
        return PlanMessage.builder().program("/bin/true").argv("true").keepFds(0, 1, 2);
    }

    static Stream<Arguments> badPlans() {
        return Stream.of(
                Arguments.of("unknown_record", trueplan().add(new PlanRecord.Raw(0x99, new byte[0])).build()),
                Arguments.of("relative_path", PlanMessage.builder().add(new PlanRecord.Raw(1, b("bin/true")))
                        .argv("true").build()),
                Arguments.of("relative_path", trueplan().cwd("tmp").build()),
                Arguments.of("missing_path", trueplan().landlock(4, 0, 0).landlockPath(4, "/nonexistent/aasm-x").build()),
                Arguments.of("missing_path", trueplan().cwd("/nonexistent/aasm-cwd").build()),
                Arguments.of("cgroup_join", trueplan().cgroupJoin("/nonexistent/aasm/cgroup.procs").build()),
                Arguments.of("unknown_namespace", trueplan().add(new PlanRecord.Raw(0x10, le32(0x40))).build()),
                Arguments.of("duplicate_record", trueplan().program("/bin/false").build()),
                Arguments.of("missing_record", PlanMessage.builder().argv("true").build()),
                Arguments.of("missing_record", PlanMessage.builder().program("/bin/true").build()),
                Arguments.of("inconsistent", trueplan().mountProc().build()),
                Arguments.of("inconsistent", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET))
                        .signals(PlanRecord.SignalTarget.ALL, 15).build()),
                Arguments.of("inconsistent", trueplan().landlockPath(4, "/usr").build()),
                Arguments.of("inconsistent", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET))
                        .relayTcpPort(8080).build()),
                Arguments.of("duplicate_record", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                        .relayTcpPort(8080).relayTcpPort(8080).build()),
                Arguments.of("malformed_record", trueplan().add(new PlanRecord.Raw(0x15, new byte[3])).build()),
                // LOOPBACK_INJECT: without a granted port, without NO_NEW_PRIVS, with a payload, twice
                Arguments.of("inconsistent", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                        .loopbackInject().noNewPrivs().build()),
                Arguments.of("inconsistent", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                        .relayTcpPort(8080).loopbackInject().build()),
                Arguments.of("malformed_record", trueplan().add(new PlanRecord.Raw(0x18, new byte[1])).build()),
                Arguments.of("duplicate_record", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                        .relayTcpPort(8080).loopbackInject().loopbackInject().noNewPrivs().build()),
                Arguments.of("inconsistent", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET))
                        .relayProxy(3128, new byte[32], "/run/aasm/relay.sock").build()),
                Arguments.of("inconsistent", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                        .relayTcpPort(3128).relayProxy(3128, new byte[32], "/run/aasm/relay.sock").build()),
                Arguments.of("malformed_record", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                        .relayProxy(3128, new byte[8], "/run/aasm/relay.sock").build()),
                Arguments.of("relative_path", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                        .relayProxy(3128, new byte[32], "relay.sock").build()),
                Arguments.of("malformed_record", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                        .relayProxy(3128, new byte[32], "/" + "s".repeat(120)).build()),
                Arguments.of("duplicate_record", trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp()
                        .relayProxy(3128, new byte[32], "/r.sock").relayProxy(3129, new byte[32], "/r.sock").build()),
                Arguments.of("bad_rlimit", trueplan().rlimit(99, 1, 1).build()),
                Arguments.of("bad_rlimit", trueplan().rlimit(PlanRecord.Rlimit.NOFILE, 10, 5).build()),
                Arguments.of("fd_missing", trueplan().keepFds(57).build()),
                Arguments.of("bad_signal", trueplan().signals(PlanRecord.SignalTarget.PROGRAM, 9).build()),
                Arguments.of("malformed_record", trueplan().add(new PlanRecord.Raw(0x50, new byte[1])).build()),
                Arguments.of("malformed_record", trueplan().seccomp(0, new byte[7]).build()),
                Arguments.of("bad_string", trueplan().add(new PlanRecord.Env("NOEQUALS")).build()),
                Arguments.of("landlock_ruleset", trueplan().landlock(1L << 62, 0, 0).build()),
                Arguments.of("malformed_record", mountNs().bind("/usr", "/usr", true).build()),
                Arguments.of("malformed_record", mountNs().viewRoot(0).viewRoot(0).build()),
                Arguments.of("malformed_record", mountNs().viewRoot(7).build()),
                Arguments.of("inconsistent", trueplan().viewRoot(0).build()),
                Arguments.of("relative_path", mountNs().viewRoot(0).viewOp(PlanRecord.ViewOp.DIR, 0, "", "tmp").build()),
                Arguments.of("path_symlink", mountNs().viewRoot(0).bind("/bin", "/bin", true).build()),
                Arguments.of("missing_path", mountNs().viewRoot(0).bind("/nonexistent/aasm", "/x", true).build()),
                Arguments.of("inconsistent", trueplan().programPid(4000).build()),
                Arguments.of("malformed_record", trueplan().programPid(1).build()),
                Arguments.of("duplicate_record", trueplan().dropCaps().dropCaps().build()),
                Arguments.of("duplicate_record", fiveFilters()));
    }

    /** A private mount namespace (root's, as the suite runs) on which a view may be built. */
    private static PlanMessage.Builder mountNs() {
        return trueplan().namespaces(EnumSet.of(PlanRecord.Namespace.MOUNT));
    }

    private static PlanMessage fiveFilters() {
        PlanMessage.Builder b = trueplan();
        byte[] allow = {6, 0, 0, 0, 0, 0, (byte) 0xff, 0x7f}; // RET ALLOW
        for (int i = 0; i < 5; i++) {
            b.seccomp(0, allow);
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badPlans")
    void refusesBadPlan(String token, PlanMessage plan) throws IOException {
        assertRefused(token, LauncherFixture.run(plan, dir));
    }

    @Test
    void refusesBadMagic() throws IOException {
        byte[] m = PlanEncoder.encode(trueplan().build());
        m[0] = 'X';
        assertRefused("bad_magic", LauncherFixture.run(m, dir, false));
    }

    @Test
    void refusesOtherVersion() throws IOException {
        byte[] m = PlanEncoder.encode(trueplan().build());
        m[4] = 1; // version 1 had no filesystem view: a launcher of version 2 never reads it as such
        assertRefused("bad_version", LauncherFixture.run(m, dir, false));
    }

    @Test
    void refusesTruncatedHeaderAndBody() throws IOException {
        byte[] m = PlanEncoder.encode(trueplan().build());
        assertRefused("truncated", LauncherFixture.run(Arrays.copyOf(m, 8), dir, true));
        assertRefused("truncated", LauncherFixture.run(Arrays.copyOf(m, m.length - 3), dir, true));
    }

    @Test
    void refusesRecordsOutOfOrder() throws IOException {
        byte[] body = ByteBuffer.allocate(6 + 4 + 6 + 9).order(ByteOrder.LITTLE_ENDIAN)
                .putShort((short) 2).putInt(4).put(b("true"))
                .putShort((short) 1).putInt(9).put(b("/bin/true")).array();
        byte[] m = ByteBuffer.allocate(12 + body.length).order(ByteOrder.LITTLE_ENDIAN).put(b("AALP"))
                .putShort((short) PlanMessage.VERSION).putShort((short) 0).putInt(body.length).put(body).array();
        assertRefused("record_order", LauncherFixture.run(m, dir, false));
    }

    @Test
    void missingSecondPathRefusesBeforeTheProgramOrAnyWrite() throws IOException {
        Path marker = dir.resolve("marker");
        Path grantA = Files.createDirectory(dir.resolve("a"));
        String script = "/bin/sh -c '/bin/sh -c \"echo x > " + marker + "\"'";
        PlanMessage.Builder base = LauncherFixture.sh(script).noNewPrivs().landlock(0xffff, 0, 0)
                .landlockPath(0xffff, "/");
        LauncherFixture.Result refused = LauncherFixture.run(base.landlockPath(2, grantA.toString())
                .landlockPath(2, dir.resolve("missing").toString()).build(), dir);
        assertRefused("missing_path", refused);
        assertTrue(refused.process().transcript().get(0).contains(dir.resolve("missing").toString()));
        assertFalse(Files.exists(marker), "the program must not have run");

        // Control: the same plan with the second path present runs and writes.
        Files.createDirectory(dir.resolve("missing"));
        LauncherFixture.Result ok = LauncherFixture.run(LauncherFixture.sh(script).noNewPrivs().landlock(0xffff, 0, 0)
                .landlockPath(0xffff, "/").landlockPath(2, grantA.toString())
                .landlockPath(2, dir.resolve("missing").toString()).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), ok.exit(), ok.toString());
        assertEquals("x\n", Files.readString(marker));
    }

    @Test
    void missingPathRefusesBeforeJoiningACgroup() throws IOException {
        Path cg = Path.of("/sys/fs/cgroup/cpuacct");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(cg.resolve("cgroup.procs")),
                "environment cannot host this check: no writable cgroup v1 cpuacct hierarchy at " + cg);
        Path group = Files.createDirectory(cg.resolve("aasm-launch-test-" + ProcessHandle.current().pid()));
        try {
            Path usage = group.resolve("cpuacct.usage");
            java.util.function.Supplier<PlanMessage.Builder> p = () -> LauncherFixture
                    .sh("i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done")
                    .cgroupJoin(group.resolve("cgroup.procs").toString()).landlock(0xffff, 0, 0)
                    .landlockPath(0xffff, "/");
            assertRefused("missing_path", LauncherFixture.run(p.get().landlockPath(4, "/nonexistent/aasm").build(), dir));
            assertEquals("0", Files.readString(usage).trim(), "nothing may have run in the cgroup");
            // Control: without the missing path the launcher joins and the program's CPU time is charged there.
            LauncherFixture.Result ok = LauncherFixture.run(p.get().build(), dir);
            assertEquals(new ExitOutcome.Exited(0), ok.exit(), ok.toString());
            assertTrue(Long.parseLong(Files.readString(usage).trim()) > 0, "the control must have been charged");
        } finally {
            Files.delete(group);
        }
    }

    static void assertRefused(String token, LauncherFixture.Result r) {
        StartOutcome.Refused refused = assertInstanceOf(StartOutcome.Refused.class, r.start(), r.toString());
        assertEquals(token, refused.reason(), r.toString());
        assertEquals(121, r.code(), r.toString());
        assertEquals(new ExitOutcome.NeverStarted(refused), r.exit());
        assertTrue(r.process().descriptors().isEmpty() || token.equals("fd_seal"), r.toString());
    }
}
