package io.aasm.backend.vm.internal.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache is trusted only under its own key and only as written: each test changes one thing about a file
 * that the control (the same file untouched) shows is read back.
 */
class ProbeCacheTest {
    private static final int UID = ((Number) uid()).intValue();
    @TempDir
    Path dir;
    private Path probes;
    private ProbeCache.Entry entry;

    @BeforeEach
    void write() throws Exception {
        probes = dir.resolve("probes");
        Map<CapabilityDomain, ProbeResult> results = new EnumMap<>(CapabilityDomain.class);
        for (CapabilityDomain d : CapabilityDomain.values()) {
            results.put(d, ProbeResult.observed("control acted, denial held for " + d.token()));
        }
        entry = new ProbeCache.Entry(Instant.now().truncatedTo(ChronoUnit.MILLIS),
                new ProbeCache.Guest("6.1.0-57-amd64", 3, true), results);
        cache(key("qemu-a")).write(entry);
    }

    @Test
    void theSameKeyReadsBackWhatWasWritten() {
        ProbeCache.Lookup l = cache(key("qemu-a")).read();
        assertEquals(entry, l.entry().orElseThrow(), l.why());
        assertEquals("rwx------", perms(probes));
    }

    @Test
    void anotherQemuDigestIsNotTrusted() {
        ProbeCache.Lookup l = cache(key("qemu-b")).read();
        assertTrue(l.entry().isEmpty());
        assertTrue(l.why().contains("no verdicts cached"), l.why());
    }

    @Test
    void aFileWhoseKeyWasEditedToMatchIsNotTrusted() throws Exception {
        // The file of key qemu-b, made by renaming qemu-a's file and rewriting its key: the digest no longer holds.
        Path a = cache(key("qemu-a")).file();
        Path b = cache(key("qemu-b")).file();
        Files.writeString(b, Files.readString(a).replace("qemu-a", "qemu-b"));
        ProbeCache.Lookup l = cache(key("qemu-b")).read();
        assertTrue(l.entry().isEmpty());
        assertTrue(l.why().contains("does not match its own digest"), l.why());
    }

    @Test
    void anEditedVerdictIsNotTrusted() throws Exception {
        Path f = cache(key("qemu-a")).file();
        Files.writeString(f, Files.readString(f).replaceFirst("DENIAL_OBSERVED", "INCONCLUSIVE"));
        ProbeCache.Lookup l = cache(key("qemu-a")).read();
        assertTrue(l.entry().isEmpty());
        assertTrue(l.why().contains("does not match its own digest"), l.why());
    }

    @Test
    void aFileOthersCanWriteIsNotTrusted() throws Exception {
        Path f = cache(key("qemu-a")).file();
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-r--"));
        ProbeCache.Lookup l = cache(key("qemu-a")).read();
        assertTrue(l.entry().isEmpty());
        assertTrue(l.why().contains("only the user's own"), l.why());
    }

    @Test
    void aFileOfAnotherUserIsNotTrusted() {
        ProbeCache.Lookup l = new ProbeCache(probes, key("qemu-a"), UID + 1).read();
        assertTrue(l.entry().isEmpty());
        assertTrue(l.why().contains("only the user's own"), l.why());
    }

    @Test
    void aSymlinkIsNotFollowed() throws Exception {
        Path f = cache(key("qemu-a")).file();
        Path real = dir.resolve("elsewhere.json");
        Files.move(f, real);
        Files.createSymbolicLink(f, real);
        assertTrue(cache(key("qemu-a")).read().entry().isEmpty());
    }

    private ProbeCache cache(ProbeKey key) {
        return new ProbeCache(probes, key, UID);
    }

    private static ProbeKey key(String qemu) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("qemu_sha256", qemu);
        h.put("kernel_sha256", "k");
        h.put("initramfs_sha256", "i");
        return ProbeKey.of("aasm-qemu-vm", "0.2.0", h);
    }

    private static String perms(Path p) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static Object uid() {
        try {
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
