package io.aasm.backend.sandlock.internal.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sandlock's answers to {@code --version} and {@code check} kept per boot and digest. The executables here are fakes
 * for discovery only (they log each time they are asked); nothing here tests confinement.
 */
class AnswerCacheTest {
    @TempDir
    Path dir;

    private Path proc(String boot) throws IOException {
        Path p = dir.resolve("proc-" + boot);
        Files.createDirectories(p.resolve("sys/kernel/random"));
        Files.writeString(p.resolve("sys/kernel/random/boot_id"), boot + "\n");
        Files.writeString(p.resolve("sys/kernel/osrelease"), "6.18\n");
        return p;
    }

    private Path fake(String versionLine, String status) throws IOException {
        Path p = dir.resolve("bin/sandlock");
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\necho \"$1\" >> " + dir.resolve("asked") + "\ncase \"$1\" in\n --version) "
                + versionLine + " ;;\n check) echo 'Landlock ABI: 7'; echo 'Status: " + status + "' ;;\n *) exit 2 ;;\nesac\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    private Discovered discover(Path binary, Optional<AnswerCache> answers) {
        return new Discovery(n -> n.equals(Discovery.ENV_BIN) ? Optional.of(binary.toString()) : Optional.empty(),
                new CommandRunner(10_000), BackendManifest.bundled(), false, Discovery::sha256, answers).discover();
    }

    private List<String> asked() throws IOException {
        Path log = dir.resolve("asked");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void theSameBinaryInTheSameBootIsNotAskedAgain() throws Exception {
        Path bin = fake("echo 'sandlock 0.8.6'", "OK");
        Optional<AnswerCache> cache = Optional.of(new AnswerCache(dir.resolve("state"), proc("b1")));
        Discovered first = discover(bin, cache);
        assertInstanceOf(Discovered.Found.class, first);
        assertEquals(List.of("--version", "check"), asked());
        Discovered again = discover(bin, cache);
        assertInstanceOf(Discovered.Found.class, again);
        assertEquals(List.of("--version", "check"), asked(), "answered from what was kept: sandlock not started");
        assertEquals(first, again, "the same verdict, the same check report");

        discover(bin, Optional.empty());
        assertEquals(4, asked().size(), "control: without the cache sandlock is asked every time");
        discover(bin, Optional.of(new AnswerCache(dir.resolve("state"), proc("b2"))));
        assertEquals(6, asked().size(), "another boot asks again");
    }

    @Test
    void aChangedBinaryIsAskedAgainAndItsAnswerDecides() throws Exception {
        Optional<AnswerCache> cache = Optional.of(new AnswerCache(dir.resolve("state"), proc("b1")));
        Path bin = fake("echo 'sandlock 0.8.6'", "OK");
        assertInstanceOf(Discovered.Found.class, discover(bin, cache));
        fake("echo 'sandlock 0.8.6'", "UNSUPPORTED");
        Discovered changed = discover(bin, cache);
        assertEquals(4, asked().size(), "a new digest is a new key");
        assertTrue(assertInstanceOf(Discovered.Unavailable.class, changed).reason().contains("UNSUPPORTED"),
                changed.toString());
    }

    @Test
    void anUncleanAnswerIsNotKept() throws Exception {
        Optional<AnswerCache> cache = Optional.of(new AnswerCache(dir.resolve("state"), proc("b1")));
        Path bin = fake("exit 1", "OK");
        assertInstanceOf(Discovered.Unavailable.class, discover(bin, cache));
        assertInstanceOf(Discovered.Unavailable.class, discover(bin, cache));
        assertEquals(List.of("--version", "--version"), asked(), "a failed --version is asked again");
    }

    @Test
    void anEntryOthersMayWriteIsIgnored() throws Exception {
        AnswerCache cache = new AnswerCache(dir.resolve("state"), proc("b1"));
        Path bin = fake("echo 'sandlock 0.8.6'", "OK");
        cache.keep(bin, "d", "--version", new CommandRunner.Output(0, "sandlock 0.8.6\n", ""));
        assertTrue(cache.recall(bin, "d", "--version").isPresent(), "control: as kept");
        Files.setPosixFilePermissions(cache.file(cache.key(bin, "d", "--version")),
                PosixFilePermissions.fromString("rw-rw-r--"));
        assertTrue(cache.recall(bin, "d", "--version").isEmpty());
    }
}
