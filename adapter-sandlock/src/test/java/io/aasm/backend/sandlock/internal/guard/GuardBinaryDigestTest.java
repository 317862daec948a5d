package io.aasm.backend.sandlock.internal.guard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.support.digest.DigestCache;
import io.aasm.support.digest.FileIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The extracted guard's digest remembered under its file identity: an unchanged copy is used as it is (and its
 * digest is not recomputed), a copy rewritten in place — same size, mtime set back — is found changed and replaced
 * before it could run.
 */
class GuardBinaryDigestTest {
    @TempDir
    Path dir;

    private static byte[] embeddedBytes() throws Exception {
        try (var in = GuardBinary.class.getClassLoader().getResourceAsStream(GuardBinary.platformDir() + "/"
                + GuardBinary.NAME)) {
            assertTrue(in != null, "this module's build carries the guard");
            return in.readAllBytes();
        }
    }

    @Test
    void anUnchangedCopyIsKeptAndARewrittenOneIsReplaced() throws Exception {
        DigestCache digests = new DigestCache(dir.resolve("state"), "sandlock-guard", Duration.ZERO);
        GuardBinary guard = GuardBinary.embedded(dir.resolve("guard"), Optional.of(digests));
        Path first = guard.verified();
        byte[] good = embeddedBytes();
        assertArrayEquals(good, Files.readAllBytes(first));
        // make the copy's ctime settled for the cache, then verify once more so its digest is remembered
        Thread.sleep(20);
        FileIdentity before = FileIdentity.of(first).orElseThrow();
        assertEquals(first, guard.verified());
        assertEquals(Optional.of(guard.sha256()), digests.remembered(first.toRealPath().toString(), before),
                "the digest is remembered for this identity");
        assertEquals(Optional.of(before), FileIdentity.of(first), "control: an unchanged copy is not re-extracted");

        // the same size, a different byte, the mtime set back: only the ctime and the content say it changed
        FileTime mtime = Files.getLastModifiedTime(first);
        byte[] bad = good.clone();
        bad[bad.length / 2] ^= 0x5a;
        Files.write(first, bad);
        Files.setLastModifiedTime(first, mtime);
        FileIdentity tampered = FileIdentity.of(first).orElseThrow();
        assertNotEquals(before, tampered, "the write changed the ctime");

        Path again = guard.verified();
        assertArrayEquals(good, Files.readAllBytes(again), "the changed copy was replaced, never used");
        assertNotEquals(tampered.ino(), FileIdentity.of(again).orElseThrow().ino(), "a new file was put in place");
    }
}
