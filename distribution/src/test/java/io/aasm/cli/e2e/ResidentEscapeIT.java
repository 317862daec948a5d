package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resident kernel is no way out of a boundary (issue 11, item 1). A program confined by aasm-native
 * reaches the kernel's socket (under the shipped default policy plus a read grant of the socket's
 * directory, or under a policy that grants read of the installation) and asks for
 * {@code run exec --isolation none}. The nested command tries to write its
 * {@code /proc/self/status} seccomp lines into a folder outside every grant, which the suite owns: that
 * folder must stay empty. The control is the same request from an unconfined caller, which is served
 * and writes {@code Seccomp: 0} there. The confined program runs once under a cold outer aasm and once
 * under the resident kernel itself.
 */
class ResidentEscapeIT {
    private static ResidentKernel kernel;

    @BeforeAll
    static void startKernel() throws Exception {
        kernel = ResidentKernel.start(Map.of());
    }

    @AfterAll
    static void stopKernel() throws Exception {
        kernel.close();
    }

    static void assumeAttacker() {
        Assumptions.assumeTrue(SocketAttacker.available(),
                "environment cannot host this check: /usr/bin/python3 (3.9+, socket.send_fds) is missing");
    }

    /** {@code sh -c} text that tries to record its seccomp status in {@code dir/escaped}. */
    static List<String> escapeRequest(Path outside) {
        return List.of("run", "exec", "--isolation", "none", "--", "/bin/sh", "-c",
                "grep Seccomp /proc/self/status > " + outside.resolve("escaped"));
    }

    /** Runs the attacker confined by aasm-native (cold or through the kernel), with an optional policy. */
    private static Aasm.Result confined(Path cwd, boolean residentOuter, List<String> policy, List<String> attacker)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "exec", "--isolation", "process", "--isolation-backend",
                "aasm-native"));
        args.addAll(policy);
        args.add("--");
        args.addAll(attacker);
        Map<String, String> env = new HashMap<>(kernel.env());
        env.put("AASM_CLIENT", residentOuter ? "on" : "off");
        Aasm.Result r = Aasm.run(Aasm.DIST, cwd, env, args.toArray(new String[0]));
        assertTrue(r.err().contains("aasm: posture=READY backend=aasm-native"),
                "the attacker was not confined by aasm-native, so this proves nothing:\n" + r);
        return r;
    }

    @Test
    void aConfinedProgramGetsNoUnconfinedLaunchUnderTheDefaultPolicy(@TempDir Path cwd) throws Exception {
        assumeAttacker();
        Path home = Aasm.DIST.toRealPath();
        Path policy = SocketAttacker.defaultPolicyReaching(kernel.socket, cwd);
        for (boolean residentOuter : List.of(false, true)) {
            Path outside = SocketAttacker.outsideEveryGrant("escape-default-");
            Aasm.Result r = confined(cwd, residentOuter, List.of("--policy", policy.toString()),
                    SocketAttacker.argv(kernel.socket, 'R', home, escapeRequest(outside)));
            String path = residentOuter ? "resident" : "cold";
            assertEquals(List.of(), list(outside), path + ": the nested launch escaped its boundary\n" + r);
            assertTrue(r.out().contains("frame F aasm: the resident kernel does not launch for a caller inside a"
                    + " boundary the kernel is not in"), path + ": the kernel did not answer cold\n" + r);
            assertTrue(kernel.log().contains("answered cold"), kernel.log());
        }
        // control: the very same request from outside every boundary is served, unconfined
        Path outside = SocketAttacker.outsideEveryGrant("escape-control-");
        Aasm.Result served = attackUnconfined(cwd, SocketAttacker.argv(kernel.socket, 'R', home, escapeRequest(outside)));
        assertTrue(served.out().contains("frame X 0"), served.toString());
        assertTrue(Files.readString(outside.resolve("escaped")).contains("Seccomp:\t0"), served.toString());
    }

    /**
     * With the installation readable, the confined program runs the real client; the kernel answers cold,
     * the client falls back to bin/aasm inside the program's own boundary, and the nested launch's
     * {@code /proc/self/status} (granted read here, written to a granted folder) shows it is still
     * under seccomp, while the folder outside every grant stays empty.
     */
    @Test
    void withTheInstallationReadableTheNestedLaunchStaysInsideTheBoundary(@TempDir Path cwd) throws Exception {
        Path home = Aasm.DIST.toRealPath();
        Path policy = cwd.resolve("read-install.yaml");
        Files.writeString(policy, "apiVersion: aasm/v1\nkind: Policy\nfilesystem:\n  read:\n"
                + "    allow: [/usr, /bin, /lib, /lib64, /etc, /proc, " + home + ", " + kernel.runtimeDir.toRealPath()
                + "]\n    posture: required\n"
                + "  write:\n    allow: [/tmp, /dev/null]\n    posture: required\n");
        for (boolean residentOuter : List.of(false, true)) {
            Path outside = SocketAttacker.outsideEveryGrant("escape-install-");
            Path granted = Files.createTempDirectory(cwd, "granted-");
            String nested = "grep Seccomp /proc/self/status > " + granted.resolve("nested")
                    + "; grep Seccomp /proc/self/status > " + outside.resolve("escaped");
            String inner = "XDG_RUNTIME_DIR=" + kernel.runtimeDir + " XDG_CACHE_HOME=" + granted.resolve("cache")
                    + " AASM_CDS=off PATH=/usr/bin:/bin exec " + home.resolve("bin/aasm-client")
                    + " run exec --isolation none -- /bin/sh -c '" + nested + "'";
            Aasm.Result r = confined(cwd, residentOuter, List.of("--policy", policy.toString()),
                    List.of("/bin/sh", "-c", inner));
            String path = residentOuter ? "resident" : "cold";
            assertEquals(List.of(), list(outside), path + ": the nested launch escaped its boundary\n" + r);
            String status = Files.readString(granted.resolve("nested"));
            assertTrue(status.contains("Seccomp:\t2"), path + ": the nested launch is not under seccomp: " + status + r);
            assertTrue(r.err().contains("the resident kernel does not launch for a caller inside a boundary the kernel is not in"),
                    path + "\n" + r);
        }
        Path outside = SocketAttacker.outsideEveryGrant("escape-install-control-");
        Aasm.Result served = Aasm.run(Aasm.DIST, cwd, kernel.env(), "run", "exec", "--isolation", "none", "--",
                "/bin/sh", "-c", "grep Seccomp /proc/self/status > " + outside.resolve("escaped"));
        assertFalse(served.err().contains("running cold"), served.toString());
        assertTrue(Files.readString(outside.resolve("escaped")).contains("Seccomp:\t0"), served.toString());
    }

    /** no_new_privs alone (no aasm involved) is a boundary the kernel is not in: run cold. */
    @Test
    void aCallerUnderNoNewPrivsIsServedColdAndWithoutItResident(@TempDir Path cwd) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")),
                "environment cannot host this check: /usr/bin/setpriv (util-linux) is missing");
        String client = Aasm.DIST.resolve("bin/aasm-client").toString();
        List<String> run = List.of("run", "exec", "--isolation", "none", "--", "/bin/sh", "-c", "echo parent=$PPID");
        List<String> nnp = new ArrayList<>(List.of("/usr/bin/setpriv", "--no-new-privs", client));
        nnp.addAll(run);
        Aasm.Result cold = Aasm.command(cwd, kernel.env(), nnp);
        assertEquals(0, cold.exit(), cold.toString());
        assertFalse(cold.out().contains("parent=" + kernel.pid() + "\n"), "served by the kernel:\n" + cold);
        assertTrue(cold.err().contains("no_new_privs is set (the kernel's is not)"), cold.toString());
        List<String> plain = new ArrayList<>(List.of(client));
        plain.addAll(run);
        Aasm.Result resident = Aasm.command(cwd, kernel.env(), plain);
        assertEquals("parent=" + kernel.pid() + "\n", resident.out(), resident.toString());
    }

    private static Aasm.Result attackUnconfined(Path cwd, List<String> argv) throws Exception {
        return Aasm.command(cwd, kernel.env(), argv);
    }

    static List<String> list(Path dir) throws java.io.IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
