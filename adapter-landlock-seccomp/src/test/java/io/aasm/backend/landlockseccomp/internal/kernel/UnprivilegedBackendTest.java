package io.aasm.backend.landlockseccomp.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One real run of the backend as uid 65534 (setpriv): user namespaces instead of root. */
class UnprivilegedBackendTest {
    @TempDir
    Path tmp;

    @Test
    void backendConfinesAsNobodyAndRefusesWhatNeedsPrivilege() throws Exception {
        Assumptions.assumeTrue(new File("/usr/bin/setpriv").canExecute(),
                "environment cannot host this check: setpriv is not installed");
        Assumptions.assumeTrue(Harness.shared().backend.facts().root(),
                "environment cannot host this check: the test must start as root to drop to uid 65534");
        Path work = Files.createDirectories(tmp.resolve("work"));
        Path cp = Files.createDirectories(tmp.resolve("cp"));
        List<String> entries = new ArrayList<>();
        String testCp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        int i = 0;
        for (String e : testCp.split(File.pathSeparator)) {
            Path src = Path.of(e);
            if (!Files.exists(src) || e.contains("junit") || e.contains("opentest4j") || e.contains("apiguardian")) {
                continue;
            }
            Path dst = cp.resolve(i++ + "-" + src.getFileName());
            copy(src, dst);
            entries.add(dst.toString());
        }
        Files.createDirectories(work.resolve("data"));
        Files.writeString(work.resolve("data/target"), "original\n");
        try (Stream<Path> all = Files.walk(tmp)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxrwxrwx" : "rw-rw-rw-"));
            }
        }
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "/usr/bin/env", "-i", "HOME=" + work, "XDG_CACHE_HOME=" + work.resolve("xdg"), "PATH=/usr/bin:/bin",
                java, "-cp", String.join(File.pathSeparator, entries), UnprivilegedMain.class.getName(), work.toString())
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the unprivileged run finished");
        String log = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.exitValue(), log);
        assertTrue(log.contains("RESULT euid_root=false"), log);
        Path out = work.resolve("out");
        assertEquals("original\n", Files.readString(out.resolve("after-denial")), "write denied as nobody");
        assertEquals("original\nchanged\n", Files.readString(out.resolve("after-control")), "control: granted write works");
        String env = Files.readString(out.resolve("env"));
        assertTrue(env.contains("KEEP=1") && !env.contains("DROP="), env);
        assertFalse(Files.readString(out.resolve("pid1-environ")).contains("HOME="),
                "pid 1 of the namespace is the launcher's init, whose environ is not the supervisor's");
        assertTrue(log.contains("RESULT ceiling=refused process_creation:"), "pids ceiling needs a writable cgroup: " + log);
    }

    private static void copy(Path src, Path dst) throws Exception {
        if (Files.isDirectory(src)) {
            try (Stream<Path> walk = Files.walk(src)) {
                for (Path s : (Iterable<Path>) walk::iterator) {
                    Path d = dst.resolve(src.relativize(s).toString());
                    if (Files.isDirectory(s)) {
                        Files.createDirectories(d);
                    } else {
                        Files.copy(s, d, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        } else {
            Files.copy(src, dst);
        }
    }
}
