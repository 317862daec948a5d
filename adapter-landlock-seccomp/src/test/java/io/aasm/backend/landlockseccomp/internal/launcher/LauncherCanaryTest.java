package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Canaries against a boundary that is deliberately missing the mechanism for their domain: the launcher
 * must refuse before the program runs. Each control installs that one mechanism and the program runs,
 * the canary denied. The program only writes a marker (a shell builtin, no fork) so "ran" is an effect.
 */
class LauncherCanaryTest {
    @TempDir
    Path dir;

    private static final long READ_FILE = 4, WRITE_FILE = 2, MAKE_REG = 256, SCOPE_SIGNAL = 2;
    /** Real paths: the launcher opens rule paths without following symlinks (/bin -> usr/bin here). */
    private static final List<String> SYSTEM = List.of("/usr", "/bin", "/lib", "/lib64", "/etc").stream()
            .map(Path::of).filter(Files::exists).map(p -> {
                try {
                    return p.toRealPath().toString();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).distinct().toList();

    /** Runs the plan twice: without the mechanism (refused, no marker) and with it (runs, canary denied). */
    private void brokenThenFixed(int kind, String domain, UnaryOperator<PlanMessage.Builder> canary,
                                 UnaryOperator<PlanMessage.Builder> mechanism) throws IOException {
        Path marker = dir.resolve("ran-" + kind);
        String script = "echo ran > " + marker;
        LauncherFixture.Result broken = LauncherFixture.run(canary.apply(LauncherFixture.sh(script).noNewPrivs())
                .build(), dir);
        StartOutcome.Refused r = assertInstanceOf(StartOutcome.Refused.class, broken.start(), broken.toString());
        assertEquals("canary_not_denied", r.reason(), broken.toString());
        assertTrue(r.detail().startsWith(domain + ":"), r.detail());
        assertFalse(Files.exists(marker), "the program must not run inside a boundary whose canary got through");
        LauncherFixture.Result fixed = LauncherFixture.run(mechanism.apply(canary.apply(LauncherFixture.sh(script)
                .noNewPrivs())).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), fixed.exit(), fixed.toString());
        assertEquals("ran", Files.readString(marker).strip(), "control: with the mechanism the program runs");
        CanaryOutcome.Ran ran = assertInstanceOf(CanaryOutcome.Ran.class, fixed.process().canary().orElseThrow());
        assertTrue(ran.wasDenied(kind), ran.toString());
    }

    @Test
    void aReadableCanaryRefusesAndLandlockDeniesIt() throws IOException {
        Path secret = Files.writeString(dir.resolve("canary"), "nonce");
        brokenThenFixed(1, "filesystem_read", b -> b.canary(1, 0, 0, secret.toString(), ""), b -> {
            b.landlock(READ_FILE, 0, 0);
            SYSTEM.forEach(p -> b.landlockPath(READ_FILE, p));
            return b;
        });
    }

    @Test
    void aWritableCanaryRefusesAndLandlockDeniesIt() throws IOException {
        // The canary's folder is outside the one write rule (the marker's folder).
        Path outside = Files.createTempDirectory("aasm-canary-write");
        try {
            Path made = outside.resolve("canary");
            brokenThenFixed(2, "filesystem_write", b -> b.canary(2, 0, 0, "", made.toString()), b -> {
                try {
                    Files.deleteIfExists(made); // what the broken run's canary created
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                return b.landlock(WRITE_FILE | MAKE_REG, 0, 0).landlockPath(WRITE_FILE | MAKE_REG, dir.toString());
            });
            assertFalse(Files.exists(made), "the fixed run's canary created nothing");
        } finally {
            try (var left = Files.list(outside)) {
                for (Path p : left.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(outside);
        }
    }

    @Test
    void aReachableListenerRefusesAndANetworkNamespaceDeniesIt() throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            listener.configureBlocking(false);
            int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
            brokenThenFixed(4, "network_egress", b -> b.canary(4, port, 0, "", ""), b -> b
                    .namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp());
            int reached = 0;
            for (SocketChannel c; (c = listener.accept()) != null; c.close()) {
                reached++;
            }
            assertEquals(1, reached, "only the broken run's canary reached the listener");
        }
    }

    @Test
    void anAllowedSyscallRefusesAndTheFilterDeniesIt() throws IOException {
        brokenThenFixed(8, "syscall", b -> b.canary(8, 0, 83, "", ""),
                b -> b.seccomp(0, LauncherRunTest.denyMkdir()));
    }

    @Test
    void aForkRefusesAndTheFilterDeniesIt() throws IOException {
        brokenThenFixed(16, "process_creation", b -> b.canary(16, 0, 0, "", ""), b -> b.seccomp(0, denyFork()));
    }

    @Test
    void aSignalOutsideTheTreeRefusesAndLandlockScopingDeniesIt() throws IOException {
        brokenThenFixed(32, "ipc", b -> b.canary(32, 0, 0, "", ""), b -> b.landlock(0, 0, SCOPE_SIGNAL));
    }

    /**
     * The plan claims RLIMIT_FSIZE at most 1 MiB. Broken: no RLIMIT record sets it, so the hard limit stays
     * the inherited one, above the claim. Control: the RLIMIT record lowers it, and raising it back fails
     * with EPERM (no CAP_SYS_RESOURCE: the launcher drops it, and this host's bounding set lacks it too).
     */
    @Test
    void aCeilingNotInForceRefusesAndTheRlimitDeniesTheRaise() throws IOException {
        assertTrue(ulimitHardFsize() > 1 << 20, "the broken run needs an inherited hard RLIMIT_FSIZE above 1 MiB");
        brokenThenFixed(64, "resource", b -> b.canary(64, 0, 0, "", "").canaryRlimit(RLIMIT_FSIZE, 1 << 20),
                b -> b.rlimit(RLIMIT_FSIZE, 1 << 20, 1 << 20).dropCaps());
    }

    private static long ulimitHardFsize() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (l.startsWith("Max file size")) {
                String hard = l.substring(25).trim().split("\\s+")[1];
                return hard.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(hard);
            }
        }
        throw new IllegalStateException("no file size line in /proc/self/limits");
    }

    @Test
    void aResourceCanaryWithoutItsCeilingIsRefusedAsInconsistent() throws IOException {
        LauncherFixture.Result r = LauncherFixture.run(LauncherFixture.sh("exit 0").canary(64, 0, 0, "", "")
                .build(), dir);
        StartOutcome.Refused refused = assertInstanceOf(StartOutcome.Refused.class, r.start(), r.toString());
        assertEquals("inconsistent", refused.reason(), r.toString());
    }

    /**
     * Broken: the host's network namespace and no socket filter, so the DNS datagram to 198.18.0.53 leaves
     * (through the default route; the test fails loudly on a host without one). Control: a namespace of the
     * program's own, whose only route is its loopback: ENETUNREACH.
     */
    @Test
    void anOutsideResolverRefusesAndANetworkNamespaceDeniesIt() throws IOException {
        brokenThenFixed(128, "name_resolution", b -> b.canary(128, 0, 0, "", ""), b -> b
                .namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp());
    }

    /** Broken: no filter, keyctl answers with the keyring's id. Control: a filter denying keyctl (250). */
    @Test
    void aReachableKeyringRefusesAndTheFilterDeniesIt() throws IOException {
        brokenThenFixed(256, "credential", b -> b.canary(256, 0, 0, "", ""), b -> b.seccomp(0, denyOne(250)));
    }

    /**
     * The canary child shares the program child's memory (CLONE_VM) but not its task: the filters it installs are
     * its own. With the SYSCALL canary and one filter the program holds exactly the plan's one filter on top of what
     * this JVM holds; if the canary's copies attached to the program child it would hold two. Control, differing by
     * one filter: the same plan with a second filter, and the program holds one more. The count is read by the
     * program itself with shell builtins (no fork), from its own /proc/self/status.
     */
    @Test
    void theCanaryChildsFiltersStayInTheCanaryChild() throws IOException {
        String script = "while read k v; do case $k in Seccomp_filters:) echo \"$v\";; esac; done < /proc/self/status";
        long own = seccompFilters(Files.readAllLines(Path.of("/proc/self/status")));
        PlanMessage.Builder one = LauncherFixture.sh(script).noNewPrivs().canary(8, 0, 83, "", "")
                .seccomp(0, LauncherRunTest.denyMkdir());
        LauncherFixture.Result r = LauncherFixture.run(one.build(), dir);
        assertEquals(new ExitOutcome.Exited(0), r.exit(), r.toString());
        assertTrue(assertInstanceOf(CanaryOutcome.Ran.class, r.process().canary().orElseThrow()).wasDenied(8),
                r.toString());
        assertEquals(own + 1, Long.parseLong(r.stdout().strip()), r.toString());
        LauncherFixture.Result two = LauncherFixture.run(LauncherFixture.sh(script).noNewPrivs().canary(8, 0, 83, "", "")
                .seccomp(0, LauncherRunTest.denyMkdir()).seccomp(0, LauncherRunTest.denyMkdir()).build(), dir);
        assertEquals(new ExitOutcome.Exited(0), two.exit(), two.toString());
        assertEquals(own + 2, Long.parseLong(two.stdout().strip()), "control: the count follows the plan's filters");
    }

    private static long seccompFilters(List<String> status) {
        return status.stream().filter(l -> l.startsWith("Seccomp_filters:"))
                .mapToLong(l -> Long.parseLong(l.substring(16).trim())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no Seccomp_filters line (Linux 5.9+)"));
    }

    private static final int RLIMIT_FSIZE = 1;

    /** x86_64-only cBPF: one syscall number fails with EPERM, everything else is allowed. */
    private static byte[] denyOne(int nr) {
        ByteBuffer b = ByteBuffer.allocate(7 * 8).order(ByteOrder.LITTLE_ENDIAN);
        insn(b, 0x20, 0, 0, 4);
        insn(b, 0x15, 1, 0, 0xC000003E);
        insn(b, 0x06, 0, 0, 0x80000000);
        insn(b, 0x20, 0, 0, 0);
        insn(b, 0x15, 0, 1, nr);
        insn(b, 0x06, 0, 0, 0x00050000 | 1);
        insn(b, 0x06, 0, 0, 0x7FFF0000);
        return b.array();
    }

    /** x86_64-only cBPF: clone(56), fork(57), vfork(58) and clone3(435) fail with EPERM. */
    private static byte[] denyFork() {
        ByteBuffer b = ByteBuffer.allocate(10 * 8).order(ByteOrder.LITTLE_ENDIAN);
        insn(b, 0x20, 0, 0, 4);
        insn(b, 0x15, 1, 0, 0xC000003E);
        insn(b, 0x06, 0, 0, 0x80000000);
        insn(b, 0x20, 0, 0, 0);
        insn(b, 0x15, 4, 0, 56);
        insn(b, 0x15, 3, 0, 57);
        insn(b, 0x15, 2, 0, 58);
        insn(b, 0x15, 1, 0, 435);
        insn(b, 0x06, 0, 0, 0x7FFF0000);
        insn(b, 0x06, 0, 0, 0x00050000 | 1);
        return b.array();
    }

    private static void insn(ByteBuffer b, int code, int jt, int jf, int k) {
        b.putShort((short) code).put((byte) jt).put((byte) jf).putInt(k);
    }
}
