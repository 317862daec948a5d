package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The launcher run as uid 65534: works with a user namespace, refuses clearly without one. */
class LauncherUnprivilegedTest {
    private static final int NOBODY = 65534;
    private static final List<String> SETPRIV = List.of("/usr/bin/setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY,
            "--clear-groups");
    private Path dir;
    private Path launcher;

    @BeforeEach
    void setUp() throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(SETPRIV.get(0))),
                "environment cannot host this check: no setpriv to drop privileges");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "environment cannot host this check: dropping to uid 65534 needs root");
        // A world-reachable copy: the cache directory is private to the test's user.
        dir = Files.createTempDirectory(Path.of("/tmp"), "aasm-unpriv",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        launcher = Files.copy(LauncherFixture.binary().path(), dir.resolve("aasm-launch"), StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterEach
    void tearDown() throws IOException {
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    private LauncherProcess start(PlanMessage plan) throws IOException {
        LaunchOptions opts = LaunchOptions.inherit().withStdio(Redirect.from(Path.of("/dev/null").toFile()),
                Redirect.to(dir.resolve("stdout").toFile()), Redirect.to(dir.resolve("stderr").toFile()))
                .withWrapper(SETPRIV, new LaunchOptions.ChannelOwner(NOBODY, NOBODY));
        return LauncherProcess.start(launcher, plan, opts);
    }

    @Test
    void worksUnprivilegedInsideAUserNamespace() throws IOException {
        Path out = dir.resolve("id.txt");
        Path victim = Files.writeString(Path.of("/tmp").resolve(dir.getFileName() + "-victim"), "original");
        try {
            Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-rw-rw-"));
            String script = "/bin/sh -c '/usr/bin/id -u > " + out + "; cat /proc/self/status | grep ^NoNewPrivs >> " + out
                    + "; echo changed > " + victim + "'";
            PlanMessage.Builder base = LauncherFixture.sh(script)
                    .namespaces(EnumSet.allOf(PlanRecord.Namespace.class)).userMap(0, NOBODY, 0, NOBODY)
                    .mountProc().loopbackUp().noNewPrivs();
            PlanMessage plan = base.landlock(0xffff, 0, 0).landlockPath(0xffffL & ~0x5ff2L, "/")
                    .landlockPath(0xffff, dir.toString()).landlockPath(0xffff, "/dev").build();
            try (LauncherProcess p = start(plan)) {
                assertInstanceOf(StartOutcome.Started.class, p.awaitStart(), p.transcript().toString());
                // The denied write is the script's last command: sh reports it with status 2.
                assertEquals(new ExitOutcome.Exited(2), p.waitFor(), p.transcript().toString());
                assertTrue(Files.readString(Path.of("/proc/self/status")).contains("NoNewPrivs:\t0"),
                        "the supervisor stays outside the boundary");
            }
            assertEquals(List.of("0", "NoNewPrivs:\t1"), Files.readAllLines(out), "root inside the namespace only");
            assertEquals("original", Files.readString(victim), "Landlock denied the write outside the grant");
            // Control: the same unprivileged launch without the Landlock ruleset writes the file.
            PlanMessage control = LauncherFixture.sh(script).namespaces(EnumSet.allOf(PlanRecord.Namespace.class))
                    .userMap(0, NOBODY, 0, NOBODY).mountProc().loopbackUp().noNewPrivs().build();
            try (LauncherProcess p = start(control)) {
                assertEquals(new ExitOutcome.Exited(0), p.waitFor(), p.transcript().toString());
            }
            assertEquals("changed\n", Files.readString(victim));
        } finally {
            Files.deleteIfExists(victim);
        }
    }

    @Test
    void refusesClearlyWithoutPrivilegeForANetworkNamespace() throws IOException {
        PlanMessage plan = LauncherFixture.sh("true").namespaces(EnumSet.of(PlanRecord.Namespace.NET)).loopbackUp().build();
        try (LauncherProcess p = start(plan)) {
            StartOutcome.Refused r = assertInstanceOf(StartOutcome.Refused.class, p.awaitStart(), p.transcript().toString());
            assertEquals("unshare", r.reason());
            assertTrue(r.detail().contains("Operation not permitted"), r.detail());
            assertEquals(121, p.launcherExitCode());
        }
    }

    @Test
    void refusesClearlyToJoinACgroupItMayNotWrite() throws IOException {
        Path procs = Path.of("/sys/fs/cgroup/pids/cgroup.procs");
        Assumptions.assumeTrue(Files.exists(procs), "environment cannot host this check: no cgroup v1 pids hierarchy");
        try (LauncherProcess p = start(LauncherFixture.sh("true").cgroupJoin(procs.toString()).build())) {
            StartOutcome.Refused r = assertInstanceOf(StartOutcome.Refused.class, p.awaitStart(), p.transcript().toString());
            assertEquals("cgroup_join", r.reason());
            assertTrue(r.detail().contains("Permission denied"), r.detail());
        }
    }
}
