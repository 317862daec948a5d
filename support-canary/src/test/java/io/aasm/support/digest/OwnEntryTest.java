package io.aasm.support.digest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule every remembered answer in a backend's state is read by, on real files: each refusal has a control that
 * differs by the one property refused (a symlink, a group- or other-writable mode, another owner, bytes that are
 * not UTF-8) and is read.
 */
class OwnEntryTest {
    @TempDir
    Path dir;

    private Path written(String name, String text) {
        Path entry = dir.resolve(name);
        assertTrue(OwnEntry.write(dir, entry, "t", text));
        return entry;
    }

    @Test
    void writesAPrivateEntryItReadsBack() throws Exception {
        Path entry = written("e.txt", "answer\n");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(entry)));
        assertEquals(Optional.of("answer\n"), OwnEntry.read(entry));
        try (var left = Files.list(dir)) {
            assertEquals(1, left.count(), "no temporary file is left behind");
        }
    }

    @Test
    void aSymlinkToAnEntryIsNotRead() throws Exception {
        Path entry = written("real.txt", "answer");
        Path link = Files.createSymbolicLink(dir.resolve("link.txt"), entry);
        assertEquals(Optional.empty(), OwnEntry.read(link));
        assertEquals(Optional.of("answer"), OwnEntry.read(entry), "control: the file itself");
    }

    @Test
    void anEntryOthersMayWriteIsNotRead() throws Exception {
        Path entry = written("e.txt", "answer");
        Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rw--w----"));
        assertEquals(Optional.empty(), OwnEntry.read(entry), "group-writable");
        Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rw-----w-"));
        assertEquals(Optional.empty(), OwnEntry.read(entry), "others-writable");
        Files.setPosixFilePermissions(entry, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(Optional.of("answer"), OwnEntry.read(entry), "control: readable by others, writable by none");
    }

    @Test
    void anEntryOfAnotherOwnerIsNotRead() throws Exception {
        assumeTrue(Integer.valueOf(0).equals(OwnEntry.uid()), "only root can give a file to another uid");
        Path entry = written("e.txt", "answer");
        Files.setAttribute(entry, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
        assertEquals(Optional.empty(), OwnEntry.read(entry));
        Files.setAttribute(entry, "unix:uid", 0, LinkOption.NOFOLLOW_LINKS);
        assertEquals(Optional.of("answer"), OwnEntry.read(entry), "control: owned by this uid again");
    }

    @Test
    void bytesThatAreNotUtf8AreNoAnswer() throws Exception {
        Path entry = written("e.txt", "x");
        Files.write(entry, new byte[] {'a', (byte) 0xff, 'b'});
        assertEquals(Optional.empty(), OwnEntry.read(entry));
        Files.write(entry, new byte[] {'a', 'b'});
        assertEquals(Optional.of("ab"), OwnEntry.read(entry), "control");
    }

    @Test
    void theBootKeyNamesEveryPart() throws Exception {
        Path proc = dir.resolve("proc");
        Files.createDirectories(proc.resolve("sys/kernel/random"));
        Files.writeString(proc.resolve("sys/kernel/random/boot_id"), "b1\n");
        Files.writeString(proc.resolve("sys/kernel/osrelease"), "6.18\n");
        String key = OwnEntry.bootKey(proc, "f/1", "a", "b");
        assertEquals(key, OwnEntry.bootKey(proc, "f/1", "a", "b"), "control: the same inputs, the same key");
        assertNotEquals(key, OwnEntry.bootKey(proc, "f/2", "a", "b"), "format");
        assertNotEquals(key, OwnEntry.bootKey(proc, "f/1", "a", "c"), "a part");
        assertNotEquals(key, OwnEntry.bootKey(proc, "f/1", "a|b"), "parts are not merged");
        Files.writeString(proc.resolve("sys/kernel/random/boot_id"), "b2\n");
        assertNotEquals(key, OwnEntry.bootKey(proc, "f/1", "a", "b"), "another boot");
        Files.writeString(proc.resolve("sys/kernel/random/boot_id"), "b1\n");
        Files.writeString(proc.resolve("sys/kernel/osrelease"), "6.19\n");
        assertNotEquals(key, OwnEntry.bootKey(proc, "f/1", "a", "b"), "another kernel");
    }
}
