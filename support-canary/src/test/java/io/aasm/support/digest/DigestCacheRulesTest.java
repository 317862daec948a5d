package io.aasm.support.digest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules every user of the cache relies on, on a real file: an entry is stored only for content read while the
 * file kept one settled identity, and found only for the same key at the same identity. Control of each: the same
 * call with the one difference removed stores or finds it. (The binaries' own cases: sandlock's
 * {@code DigestCacheTest}, aasm-native's {@code LauncherDigestTest}.)
 */
class DigestCacheRulesTest {
    private static final String DIGEST = "cd".repeat(32);

    @TempDir
    Path dir;

    private FileIdentity settledFile() throws Exception {
        Path f = dir.resolve("bin");
        Files.writeString(f, "content");
        Thread.sleep(400); // older than the 200 ms settle time below
        return FileIdentity.of(f).orElseThrow();
    }

    private DigestCache cache() {
        return new DigestCache(dir.resolve("state"), "test", Duration.ofMillis(200));
    }

    @Test
    void storedOnlyWhenTheIdentityHeldWhileRead() throws Exception {
        FileIdentity id = settledFile();
        FileIdentity moved = new FileIdentity(id.dev(), id.ino(), id.size(), id.mtimeNanos(), id.ctimeNanos() + 1);
        cache().remember("k", id, Optional.of(moved), DIGEST);
        assertEquals(Optional.empty(), cache().remembered("k", id), "changed while read: not stored");
        cache().remember("k", id, Optional.empty(), DIGEST);
        assertEquals(Optional.empty(), cache().remembered("k", id), "unreadable after: not stored");
        cache().remember("k", id, Optional.of(id), DIGEST);
        assertEquals(Optional.of(DIGEST), cache().remembered("k", id), "control: unchanged while read");
    }

    @Test
    void foundOnlyForItsKeyAtItsIdentity() throws Exception {
        FileIdentity id = settledFile();
        cache().remember("k", id, Optional.of(id), DIGEST);
        FileIdentity other = new FileIdentity(id.dev(), id.ino(), id.size(), id.mtimeNanos(), id.ctimeNanos() + 1);
        assertEquals(Optional.empty(), cache().remembered("k", other));
        assertEquals(Optional.empty(), cache().remembered("k2", id));
        assertEquals(Optional.empty(), new DigestCache(dir.resolve("state"), "other").remembered("k", id),
                "another cache's name reads no entry of this one");
        assertEquals(Optional.of(DIGEST), cache().remembered("k", id), "control");
    }

    @Test
    void aFreshFileIsNotRemembered() throws Exception {
        Path f = dir.resolve("fresh");
        Files.writeString(f, "content");
        FileIdentity id = FileIdentity.of(f).orElseThrow();
        new DigestCache(dir.resolve("state"), "test", Duration.ofHours(1)).remember("k", id, Optional.of(id), DIGEST);
        assertFalse(Files.exists(dir.resolve("state")), "a ctime inside the settle time may share its tick with a write");
    }

    @Test
    void aNameOutsideTheEntryAlphabetIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new DigestCache(dir, "../x"));
        assertTrue(new DigestCache(dir, "aasm-launch").remembered("k", new FileIdentity(1, 2, 3, 4, 5)).isEmpty());
    }
}
