package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.support.digest.DigestCache;
import io.aasm.support.digest.FileIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's digest remembered under its file's identity never lets a changed launcher pass for the one hashed
 * before: a same-size rewrite with its mtime set back by the real {@code touch -d} is hashed again (its ctime
 * moved). Control: the unchanged launcher is answered from the cache, shown by an entry whose digest the test
 * replaced being returned. The embedded launcher is always held to its embedded checksum, cache or not.
 */
class LauncherDigestTest {
    private static final Duration SETTLE = Duration.ofMillis(200);
    private static final String FORGED = "ab".repeat(32);

    @TempDir
    Path dir;

    private DigestCache cache() {
        return new DigestCache(dir.resolve("state"), "aasm-launch", SETTLE);
    }

    /** An operator's launcher: a copy of the embedded one, its times older than the settle time. */
    private Path configured() throws Exception {
        Path p = dir.resolve("own").resolve("aasm-launch");
        Files.createDirectories(p.getParent());
        Files.copy(LauncherBinary.extract(dir.resolve("x")).path(), p);
        Thread.sleep(SETTLE.toMillis() * 2);
        return p;
    }

    private Path onlyEntry() throws IOException {
        try (var s = Files.list(dir.resolve("state"))) {
            List<Path> entries = s.filter(f -> f.getFileName().toString().startsWith("aasm-launch-digest-")).toList();
            assertEquals(1, entries.size(), "one entry for one launcher: " + entries);
            return entries.get(0);
        }
    }

    /** Replaces the digest in the stored entry (in place), so an answer from the cache is told apart. */
    private void forgeEntry(String digest) throws IOException {
        Path e = onlyEntry();
        String[] f = Files.readString(e).strip().split(" ", 8);
        f[6] = digest;
        Files.writeString(e, String.join(" ", f) + "\n");
    }

    @Test
    void unchangedConfiguredLauncherIsAnsweredFromTheCache() throws Exception {
        Path p = configured();
        String real = LauncherBinary.sha256(Files.readAllBytes(p));
        assertEquals(real, LauncherBinary.load(Optional.of(p), Optional.of(cache())).sha256());
        forgeEntry(FORGED);
        LauncherBinary again = LauncherBinary.load(Optional.of(p), Optional.of(cache()));
        assertEquals(FORGED, again.sha256(), "the unchanged launcher's digest came from the entry");
        assertArrayEquals(Files.readAllBytes(p), Files.readAllBytes(again.path()), "and its bytes were sealed");
    }

    @Test
    void sameSizeRewriteWithMtimeSetBackIsHashedAgain() throws Exception {
        Path p = configured();
        LauncherBinary.load(Optional.of(p), Optional.of(cache()));
        forgeEntry(FORGED);
        FileIdentity was = FileIdentity.of(p).orElseThrow();
        byte[] bin = Files.readAllBytes(p);
        bin[bin.length - 1] ^= 1; // in place: same inode, same size
        Files.write(p, bin);
        long ns = was.mtimeNanos();
        Process t = new ProcessBuilder("touch", "-m", "-d", "@" + ns / 1_000_000_000L + "."
                + String.format("%09d", ns % 1_000_000_000L), p.toString()).inheritIO().start();
        assertEquals(0, t.waitFor());
        FileIdentity now = FileIdentity.of(p).orElseThrow();
        assertEquals(List.of(was.dev(), was.ino(), was.size(), was.mtimeNanos()),
                List.of(now.dev(), now.ino(), now.size(), now.mtimeNanos()), "only ctime tells the files apart");
        String got = LauncherBinary.load(Optional.of(p), Optional.of(cache())).sha256();
        assertEquals(LauncherBinary.sha256(bin), got);
        assertNotEquals(FORGED, got);
    }

    @Test
    void embeddedLauncherIsRememberedAndStillHeldToItsChecksum() throws Exception {
        String expected = LauncherBinary.embeddedChecksum();
        assertEquals(expected, LauncherBinary.load(Optional.empty(), Optional.of(cache())).sha256());
        Path entry = onlyEntry();
        assertTrue(Files.readString(entry).contains(" " + expected + " "), "the embedded launcher's digest is stored");
        Object stored = Files.getAttribute(entry, "unix:ino");
        assertEquals(expected, LauncherBinary.load(Optional.empty(), Optional.of(cache())).sha256());
        assertEquals(stored, Files.getAttribute(onlyEntry(), "unix:ino"), "control: a hit leaves the entry as it is");
        forgeEntry(FORGED);
        assertEquals(expected, LauncherBinary.load(Optional.empty(), Optional.of(cache())).sha256(),
                "an entry that is not the embedded checksum is not taken for it: the launcher is hashed");
        assertTrue(Files.readString(onlyEntry()).contains(" " + expected + " "), "and the entry stored again");
    }
}
