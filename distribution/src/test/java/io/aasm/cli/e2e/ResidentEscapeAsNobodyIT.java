package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link ResidentEscapeIT} for an unprivileged user: kernel, confined attacker and control all run as
 * uid 65534, so nothing here leans on root's view of /proc. The kernel's cache, its runtime directory
 * and the folder outside every grant are not under /tmp; the policy is the shipped default plus a read
 * grant of the runtime directory.
 */
class ResidentEscapeAsNobodyIT {
    private static final List<String> NOBODY = List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
            "--clear-groups");

    private static List<String> asNobody(List<String> cmd) {
        List<String> all = new ArrayList<>(NOBODY);
        all.addAll(cmd);
        return all;
    }

    private static void own(Path p, String mode) throws Exception {
        Files.setAttribute(p, "unix:uid", 65534);
        Files.setAttribute(p, "unix:gid", 65534);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
    }

    @Test
    void aConfinedProgramOfAnotherUserGetsNoUnconfinedLaunchEither() throws Exception {
        ResidentEscapeIT.assumeAttacker();
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv"))
                        && "0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).strip()),
                "environment cannot host this check: switching to uid 65534 needs root and setpriv");
        Path base = SocketAttacker.outsideEveryGrant("nobody-");
        own(base, "rwxr-xr-x");
        Aasm.Result readable = Aasm.command(base, Map.of(), asNobody(List.of("/bin/sh", "-c",
                "test -r " + Aasm.DIST.resolve("lib/aasm-boot.jar") + " && test -x " + Aasm.DIST.resolve("bin/aasm"))));
        Assumptions.assumeTrue(readable.exit() == 0, "environment cannot host this check: uid 65534 cannot read the"
                + " installation at " + Aasm.DIST);
        Path cache = Files.createDirectory(base.resolve("cache"));
        own(cache, "rwx------");
        Path outside = Files.createDirectory(base.resolve("outside"));
        own(outside, "rwx------");
        Path rt = Files.createDirectory(base.resolve("rt"));
        own(rt, "rwx------");
        Path work = Files.createTempDirectory("aasm-nobody-work");
        own(work, "rwxr-xr-x");
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", rt.toString(), "XDG_CACHE_HOME", cache.toString(),
                "HOME", base.toString());
        String aasm = Aasm.DIST.resolve("bin/aasm").toString();
        Aasm.Result start = Aasm.command(work, env, asNobody(List.of(aasm, "daemon", "start")));
        assertEquals(0, start.exit(), start.toString());
        try {
            Path sock = rt.resolve("aasm.sock");
            List<String> attack = SocketAttacker.argv(sock, 'R', Aasm.DIST.toRealPath(),
                    ResidentEscapeIT.escapeRequest(outside));
            List<String> confined = new ArrayList<>(List.of(aasm, "run", "exec", "--isolation", "process",
                    "--isolation-backend", "aasm-native", "--policy",
                    SocketAttacker.defaultPolicyReaching(sock, work).toString(), "--"));
            confined.addAll(attack);
            Map<String, String> cold = new java.util.HashMap<>(env);
            cold.put("AASM_CLIENT", "off");
            Aasm.Result r = Aasm.command(work, cold, asNobody(confined));
            assertTrue(r.err().contains("aasm: posture=READY backend=aasm-native"), r.toString());
            assertEquals(List.of(), ResidentEscapeIT.list(outside), "the nested launch escaped its boundary\n" + r);
            assertTrue(r.out().contains("frame F aasm: the resident kernel does not launch for a caller inside"), r.toString());
            Aasm.Result served = Aasm.command(work, env, asNobody(attack));
            assertTrue(served.out().contains("frame X 0"), served.toString());
            assertTrue(Files.readString(outside.resolve("escaped")).contains("Seccomp:\t0"), served.toString());
        } finally {
            Aasm.command(work, env, asNobody(List.of(aasm, "daemon", "stop")));
        }
    }
}
