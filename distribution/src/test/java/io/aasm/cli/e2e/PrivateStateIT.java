package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * aasm's own state stays out of /tmp (issue 11, item 4): what the JVM creates and later loads lives in
 * the user's 0700 cache directory, and killed runs' leftovers are reclaimed. Cold path only: each test
 * looks at the JVM that bin/aasm starts. Each test has its own cache (XDG_CACHE_HOME) and points
 * {@code java.io.tmpdir} at a folder of its own, so whatever would still land in a temporary directory
 * is seen there.
 */
class PrivateStateIT {

    private static Map<String, String> env(Path dir) {
        return Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString(), "AASM_CLIENT", "off",
                "AASM_JAVA_OPTS", "-Djava.io.tmpdir=" + dir.resolve("jtmp"),
                "XDG_RUNTIME_DIR", dir.resolve("rt").toString(), "XDG_STATE_HOME", dir.resolve("state").toString());
    }

    private static void prepare(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("jtmp"));
        Files.createDirectories(dir.resolve("rt"));
        Files.createDirectories(dir.resolve("state/aasm"));
    }

    @Test
    void aBusyCachesStandInLivesInTheCacheDirectoryNotInTmp(@TempDir Path dir) throws Exception {
        prepare(dir);
        Path first = Files.createDirectories(dir.resolve("first"));
        Path second = Files.createDirectories(dir.resolve("second"));
        Path started = dir.resolve("started");
        Path release = dir.resolve("release");
        Process slow = Aasm.start(Aasm.DIST, first, env(dir), "run", "exec", "--isolation", "none", "--",
                "sh", "-c", ": > " + started + "; while [ ! -e " + release + " ]; do sleep 0.1; done");
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.exists(started) && slow.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(Files.exists(started), "the first run never started its program");
            // the second JVM finds the shared bundle cache locked and uses a private one: where, and how open?
            Aasm.Result quick = Aasm.run(Aasm.DIST, second, env(dir), "run", "exec", "--isolation", "none", "--",
                    "sh", "-c", "cd \"$XDG_CACHE_HOME\"/aasm/tmp/$PPID-* && stat -c '%a %n' . felix/bundle0");
            assertEquals(0, quick.exit(), quick.toString());
            // Felix makes its own folders 0755; what matters is the 0700 folder they are in
            assertTrue(quick.out().matches("700 \\.\n\\d+ felix/bundle0\n"), quick.toString());
        } finally {
            Files.writeString(release, "");
            assertTrue(slow.waitFor(120, TimeUnit.SECONDS));
        }
        assertEquals(List.of(), ResidentEscapeIT.list(dir.resolve("jtmp")), "aasm left state in java.io.tmpdir");
        assertEquals(List.of(), ResidentEscapeIT.list(dir.resolve("cache/aasm/tmp")), "a finished JVM left its temp");
        for (Path p : List.of(dir.resolve("cache/aasm"), dir.resolve("cache/aasm/tmp"))) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(p)), p.toString());
        }
    }

    @Test
    void theLeftoversOfKilledRunsAreReclaimedAtStartAndLiveOnesKept(@TempDir Path dir) throws Exception {
        prepare(dir);
        Path tmp = Files.createDirectories(dir.resolve("cache/aasm/tmp"));
        long self = ProcessHandle.current().pid();
        String stat = Files.readString(Path.of("/proc/self/stat"));
        long start = Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19]);
        String ns = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString().replaceAll("\\D", "");
        Path dead = Files.createDirectories(tmp.resolve("2147480000-77-" + ns + "/felix/bundle1"));
        Path reused = Files.createDirectories(tmp.resolve(self + "-" + (start + 1) + "-" + ns + "/jna"));
        Path live = Files.createDirectories(tmp.resolve(self + "-" + start + "-" + ns + "/jna"));
        // a JVM in another pid namespace (a container sharing the cache): its pid cannot be judged from here
        Path foreign = Files.createDirectories(tmp.resolve("2147480000-77-1/jna"));
        Path keep = Files.writeString(SocketAttacker.outsideEveryGrant("reclaim-").resolve("keep"), "kept\n");
        Files.createSymbolicLink(tmp.resolve("2147480001-1"), keep.getParent());
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, env(dir), "version");
        assertEquals(0, r.exit(), r.toString());
        assertFalse(Files.exists(dead.getParent().getParent()), "a dead JVM's temp was kept");
        assertFalse(Files.exists(reused.getParent()), "a dead JVM's temp was kept because its pid was reused");
        assertFalse(Files.exists(tmp.resolve("2147480001-1"), LinkOption.NOFOLLOW_LINKS), "a planted link was kept");
        assertEquals("kept\n", Files.readString(keep), "reclaiming followed a link");
        assertTrue(Files.isDirectory(live), "a living JVM's temp was taken away");
        assertTrue(Files.isDirectory(foreign), "another pid namespace's temp was taken away");
    }

    @Test
    void anUnusableCacheDirectoryStopsAasmBeforeAnythingRuns(@TempDir Path dir) throws Exception {
        prepare(dir);
        Files.writeString(dir.resolve("cache"), "a file, not a directory\n");
        Path marker = dir.resolve("ran");
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, env(dir), "run", "exec", "--isolation", "none", "--",
                "sh", "-c", ": > " + marker);
        assertEquals(125, r.exit(), r.toString());
        assertTrue(r.err().contains("aasm: cannot use the cache directory " + dir.resolve("cache/aasm")), r.toString());
        assertFalse(Files.exists(marker), "the program ran");
        assertEquals(List.of(), ResidentEscapeIT.list(dir.resolve("jtmp")), "aasm fell back to java.io.tmpdir");
    }

    @Test
    void versionNamesThePathsNoLaunchMayWrite(@TempDir Path dir) throws Exception {
        prepare(dir);
        Aasm.Result r = Aasm.run(Aasm.DIST, dir, env(dir), "version");
        assertEquals(0, r.exit(), r.toString());
        String expected = "protected " + String.join(":", Aasm.DIST.toRealPath().toString(),
                dir.resolve("cache/aasm").toRealPath().toString(), dir.resolve("rt").toRealPath().toString(),
                Path.of(System.getProperty("java.home")).toRealPath().toString(),
                dir.resolve("state/aasm").toRealPath().toString()) + "\n";
        assertTrue(r.out().contains(expected), "expected " + expected + r);
    }
}
