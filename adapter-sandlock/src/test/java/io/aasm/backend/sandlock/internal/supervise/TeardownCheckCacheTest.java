package io.aasm.backend.sandlock.internal.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.PrerequisiteStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The self-check's key follows every input its verdict depends on; only observations are kept, and only trusted. */
class TeardownCheckCacheTest {
    private static final Instant AT = Instant.parse("2026-12-02T07:00:00Z");

    @TempDir
    Path dir;

    private Path proc(String boot, String kernel) throws Exception {
        Path p = dir.resolve("proc-" + boot + "-" + kernel);
        Files.createDirectories(p.resolve("sys/kernel/random"));
        Files.writeString(p.resolve("sys/kernel/random/boot_id"), boot + "\n");
        Files.writeString(p.resolve("sys/kernel/osrelease"), kernel + "\n");
        return p;
    }

    @Test
    void keyChangesWithBootKernelGuardCgroupAndAuthority() throws Exception {
        TeardownCheckCache a = new TeardownCheckCache(dir, proc("b1", "6.18"));
        String k = a.key("guard1", "/sys/fs/cgroup/x", "authority:drop");
        assertEquals(k, a.key("guard1", "/sys/fs/cgroup/x", "authority:drop"), "control: same inputs, same key");
        assertNotEquals(k, new TeardownCheckCache(dir, proc("b2", "6.18")).key("guard1", "/sys/fs/cgroup/x",
                "authority:drop"), "another boot");
        assertNotEquals(k, new TeardownCheckCache(dir, proc("b1", "6.19")).key("guard1", "/sys/fs/cgroup/x",
                "authority:drop"), "another kernel");
        assertNotEquals(k, a.key("guard2", "/sys/fs/cgroup/x", "authority:drop"), "another guard");
        assertNotEquals(k, a.key("guard1", "none", "authority:drop"), "no cgroup");
        assertNotEquals(k, a.key("guard1", "/sys/fs/cgroup/y", "authority:drop"), "another cgroup");
        assertNotEquals(k, a.key("guard1", "/sys/fs/cgroup/x", "authority:userns"), "another authority drop");
    }

    @Test
    void observationsRoundTripAndAnUncheckedStatusIsNeverKept() throws Exception {
        TeardownCheckCache c = new TeardownCheckCache(dir.resolve("cache"), proc("b", "k"));
        String yes = c.key("g", "none", "a");
        String no = c.key("g2", "none", "a");
        String unknown = c.key("g3", "none", "a");
        assertTrue(c.load(yes).isEmpty());
        c.store(yes, new PrerequisiteStatus.Satisfied("a setsid descendant was killed"), AT);
        c.store(no, new PrerequisiteStatus.Unsatisfied("a setsid descendant survived"), AT);
        c.store(unknown, new PrerequisiteStatus.Unchecked("could not run"), AT);
        assertEquals(Optional.of(new TeardownCheckCache.Entry(new PrerequisiteStatus.Satisfied(
                "a setsid descendant was killed"), AT)), c.load(yes));
        assertEquals(Optional.of(new TeardownCheckCache.Entry(new PrerequisiteStatus.Unsatisfied(
                "a setsid descendant survived"), AT)), c.load(no));
        assertTrue(c.load(unknown).isEmpty(), "'could not run' is no observation: the next process checks");
    }

    @Test
    void anEntryOthersMayWriteIsIgnored() throws Exception {
        TeardownCheckCache c = new TeardownCheckCache(dir.resolve("cache"), proc("b", "k"));
        String key = c.key("g", "none", "a");
        c.store(key, new PrerequisiteStatus.Satisfied("killed"), AT);
        Path f = c.file(key);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertTrue(c.load(key).isPresent(), "control: the entry as stored is read");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw----"));
        assertTrue(c.load(key).isEmpty(), "group-writable: anyone in the group could have written it");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-----w-"));
        assertTrue(c.load(key).isEmpty(), "writable by others");
    }

    @Test
    void anEntryUnderAnotherKeyOrFormatIsIgnored() throws Exception {
        TeardownCheckCache c = new TeardownCheckCache(dir.resolve("cache"), proc("b", "k"));
        String key = c.key("g", "none", "a");
        c.store(key, new PrerequisiteStatus.Satisfied("killed"), AT);
        String text = Files.readString(c.file(key));
        Files.writeString(c.file(key), text.replace(key, c.key("other", "none", "a")));
        assertTrue(c.load(key).isEmpty(), "a file renamed into place for another key");
        Files.writeString(c.file(key), text.replace(TeardownCheckCache.FORMAT, "aasm.sandlock.teardown-check/0"));
        assertTrue(c.load(key).isEmpty(), "another format");
        Files.writeString(c.file(key), text);
        assertTrue(c.load(key).isPresent(), "control: the entry as written");
    }
}
