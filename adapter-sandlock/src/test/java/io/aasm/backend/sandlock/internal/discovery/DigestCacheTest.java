package io.aasm.backend.sandlock.internal.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.backend.ProvenanceStatus;
import io.aasm.support.digest.DigestCache;
import io.aasm.support.digest.FileIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The digest cache never lets a changed binary pass for the one hashed before: a same-size rewrite or a swapped
 * file with its mtime set back by the real {@code touch -d} is hashed again (its ctime moved). Control: the
 * unchanged binary is answered from the cache, shown by an entry whose digest the test replaced being returned.
 */
class DigestCacheTest {
    private static final Duration SETTLE = Duration.ofMillis(200);
    private static final String FORGED = "ab".repeat(32);

    @TempDir
    Path dir;

    private Path binary(String name, String marker) throws IOException {
        Path p = dir.resolve(name);
        // Same length for every marker of the same length: the rewrites below keep the size.
        Files.writeString(p, "#!/bin/sh\n# " + marker + "\ncase \"$1\" in --version) echo 'sandlock 0.8.6' ;;"
                + " check) echo 'Status: OK' ;; esac\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    /** Waits until the file's ctime is older than the settle time, so the cache may store its digest. */
    private static void settle() throws InterruptedException {
        Thread.sleep(SETTLE.toMillis() * 2);
    }

    private Path cacheDir() {
        return dir.resolve("state");
    }

    private Path onlyEntry() throws IOException {
        try (var s = Files.list(cacheDir())) {
            List<Path> entries = s.filter(f -> f.getFileName().toString().startsWith("sandlock-digest-")).toList();
            assertEquals(1, entries.size(), "one entry for one binary: " + entries);
            return entries.get(0);
        }
    }

    /** Replaces the digest in the stored entry, so an answer from the cache is told apart from a fresh hash. */
    private void forgeEntry() throws IOException {
        Path e = onlyEntry();
        String[] f = Files.readString(e).strip().split(" ", 8);
        f[6] = FORGED;
        Files.writeString(e, String.join(" ", f) + "\n");
    }

    /** The real touch(1), setting mtime back to the exact value it had. */
    private static void restoreMtime(Path p, FileIdentity was) throws IOException, InterruptedException {
        long ns = was.mtimeNanos();
        String stamp = "@" + ns / 1_000_000_000L + "." + String.format("%09d", ns % 1_000_000_000L);
        Process t = new ProcessBuilder("touch", "-m", "-d", stamp, p.toString()).inheritIO().start();
        assertEquals(0, t.waitFor());
        assertEquals(was.mtimeNanos(), FileIdentity.of(p).orElseThrow().mtimeNanos(), "touch -d restored mtime");
    }

    @Test
    void unchangedBinaryIsAnsweredFromTheCache() throws Exception {
        Path a = binary("sandlock", "AAAA");
        settle();
        DigestCache cache = new DigestCache(cacheDir(), "sandlock", SETTLE);
        assertEquals(Discovery.sha256(a), cache.sha256(a));
        forgeEntry();
        assertEquals(Optional.of(FORGED), cache.sha256(a), "the unchanged binary's digest came from the entry");
        assertEquals(Optional.of(FORGED), new DigestCache(cacheDir(), "sandlock", SETTLE).sha256(a), "and in a new process");
    }

    @Test
    void sameSizeRewriteWithMtimeSetBackIsHashedAgain() throws Exception {
        Path a = binary("sandlock", "AAAA");
        settle();
        DigestCache cache = new DigestCache(cacheDir(), "sandlock", SETTLE);
        cache.sha256(a);
        forgeEntry();
        FileIdentity was = FileIdentity.of(a).orElseThrow();
        Files.writeString(a, Files.readString(a).replace("AAAA", "BBBB")); // in place: same inode, same size
        restoreMtime(a, was);
        FileIdentity now = FileIdentity.of(a).orElseThrow();
        assertEquals(List.of(was.dev(), was.ino(), was.size(), was.mtimeNanos()),
                List.of(now.dev(), now.ino(), now.size(), now.mtimeNanos()), "only ctime tells the files apart");
        assertNotEquals(was.ctimeNanos(), now.ctimeNanos());
        Optional<String> got = cache.sha256(a);
        assertEquals(Discovery.sha256(a), got);
        assertNotEquals(Optional.of(FORGED), got);
    }

    @Test
    void swappedBinaryWithMtimeSetBackIsHashedAgain() throws Exception {
        Path a = binary("sandlock", "AAAA");
        Path b = binary("other", "BBBB");
        settle();
        DigestCache cache = new DigestCache(cacheDir(), "sandlock", SETTLE);
        cache.sha256(a);
        forgeEntry();
        FileIdentity was = FileIdentity.of(a).orElseThrow();
        restoreMtime(b, was);
        Files.move(b, a, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        assertEquals(was.size(), Files.size(a));
        assertEquals(Discovery.sha256(a), cache.sha256(a));
    }

    @Test
    void pinnedBinarySwappedForAnUnpinnedOneIsNoLongerVerified() throws Exception {
        Path a = binary("sandlock", "AAAA");
        Path b = binary("other", "BBBB");
        settle();
        BackendManifest pinned = new BackendManifest(Version.parse("0.8.6"), Version.parse("0.8.6"),
                Set.of(Discovery.sha256(a).orElseThrow()), "Apache-2.0", "https://github.com/multikernel/sandlock",
                false);
        Discovery d = new Discovery(n -> n.equals(Discovery.ENV_BIN) ? Optional.of(a.toString()) : Optional.empty(),
                new CommandRunner(10_000), pinned, true, new DigestCache(cacheDir(), "sandlock", SETTLE)::sha256);
        assertEquals(ProvenanceStatus.VERIFIED, assertInstanceOf(Discovered.Found.class, d.discover()).provenance());
        // Control: the unchanged pinned binary, now from the cache, is still verified.
        assertEquals(ProvenanceStatus.VERIFIED, assertInstanceOf(Discovered.Found.class, d.discover()).provenance());
        FileIdentity was = FileIdentity.of(a).orElseThrow();
        Files.write(a, Files.readAllBytes(b)); // same size, other bytes
        restoreMtime(a, was);
        Discovered.Unavailable u = assertInstanceOf(Discovered.Unavailable.class, d.discover());
        assertTrue(u.reason().contains("which is not a pinned digest"), u.reason());
        assertEquals(Discovery.sha256(b), u.sha256());
    }

    @Test
    void aFileChangedWithinTheSettleTimeIsNotRemembered() throws Exception {
        Path a = binary("sandlock", "AAAA");
        new DigestCache(cacheDir(), "sandlock", Duration.ofHours(1)).sha256(a);
        assertFalse(Files.exists(cacheDir()) && Files.list(cacheDir()).findAny().isPresent(),
                "a ctime inside the settle time may still share its tick with a later write");
    }

    @Test
    void anEntryOthersMayWriteIsIgnored() throws Exception {
        Path a = binary("sandlock", "AAAA");
        settle();
        DigestCache cache = new DigestCache(cacheDir(), "sandlock", SETTLE);
        cache.sha256(a);
        forgeEntry();
        Files.setPosixFilePermissions(onlyEntry(), PosixFilePermissions.fromString("rw-rw-rw-"));
        assertEquals(Discovery.sha256(a), cache.sha256(a), "control: the same entry at 0600 is used (first test)");
    }
}
