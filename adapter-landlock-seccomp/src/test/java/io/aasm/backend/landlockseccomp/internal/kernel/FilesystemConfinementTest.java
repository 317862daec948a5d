package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Filesystem read/write: effects checked by the test, each denial with its one-grant control. */
class FilesystemConfinementTest {
    @TempDir
    Path tmp;
    Harness h;
    Path out;
    Path secret;

    @BeforeEach
    void setUp() throws Exception {
        h = Harness.shared();
        out = Files.createDirectories(tmp.resolve("out"));
        secret = Files.createDirectories(tmp.resolve("secret"));
        Files.writeString(secret.resolve("key"), "TOP-SECRET-42");
    }

    @Test
    void readOutsideGrantsNeverReachesOutput() throws Exception {
        String action = "cat " + secret.resolve("key") + " > " + out.resolve("copy");
        h.sh(action, tmp, read(), write(out.toString()));
        assertFalse(Files.readString(out.resolve("copy")).contains("TOP-SECRET-42"), "secret leaked");
        h.sh(action, tmp, read(secret.toString()), write(out.toString()));
        assertEquals("TOP-SECRET-42", Files.readString(out.resolve("copy")), "control: granted read works");
    }

    @Test
    void writeOutsideGrantsLeavesFileUnchangedByteForByte() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        byte[] original = "line one\nline two\n".getBytes();
        Path target = Files.write(dir.resolve("f"), original);
        String action = "echo overwritten > " + target + "; echo appended >> " + target;
        h.sh(action, tmp, read(), write(out.toString()));
        assertArrayEquals(original, Files.readAllBytes(target));
        h.sh(action, tmp, read(), write(out.toString(), dir.toString()));
        assertEquals("overwritten\nappended\n", Files.readString(target), "control: granted write works");
    }

    @Test
    void truncateOutsideGrantsIsDenied() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        byte[] original = "0123456789".getBytes();
        Path target = Files.write(dir.resolve("f"), original);
        String action = "truncate -s 0 " + target;
        h.sh(action, tmp, read(), write(out.toString()));
        assertArrayEquals(original, Files.readAllBytes(target));
        h.sh(action, tmp, read(), write(out.toString(), dir.toString()));
        assertEquals(0, Files.size(target), "control: granted truncate works");
    }

    @Test
    void renameOutOfAndIntoGrantedTreeIsDenied() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("data"));
        Path target = Files.writeString(dir.resolve("f"), "keep");
        String action = "mv " + target + " " + out.resolve("stolen");
        h.sh(action, tmp, read(), write(out.toString()));
        assertEquals("keep", Files.readString(target));
        assertFalse(Files.exists(out.resolve("stolen")));
        h.sh(action, tmp, read(), write(out.toString(), dir.toString()));
        assertTrue(Files.exists(out.resolve("stolen")), "control: rename between granted trees works");
        assertFalse(Files.exists(target));
    }

    @Test
    void symlinkAndHardLinkDoNotReachTheSecret() throws Exception {
        Path key = secret.resolve("key");
        String action = "ln -s " + key + " " + out.resolve("sym") + "; cat " + out.resolve("sym") + " > " + out.resolve("via-sym")
                + "; ln " + key + " " + out.resolve("hard") + "; cat " + out.resolve("hard") + " > " + out.resolve("via-hard");
        h.sh(action, tmp, read(), write(out.toString()));
        assertFalse(Files.readString(out.resolve("via-sym")).contains("TOP-SECRET-42"), "symlink leaked the secret");
        assertFalse(Files.exists(out.resolve("hard")), "a hard link into the writable tree must not be created");
        assertFalse(Files.readString(out.resolve("via-hard")).contains("TOP-SECRET-42"));
        assertEquals("TOP-SECRET-42", Files.readString(key), "the secret itself is untouched");
        Files.delete(out.resolve("sym"));
        // Control: with a folder holding both granted for writing (write includes read and refer) both work. Two
        // separate grants would not do for the hard link: each grant is its own mount, and links between mounts
        // fail with EXDEV.
        h.sh(action, tmp, read(), write(out.toString(), tmp.toString()));
        assertEquals("TOP-SECRET-42", Files.readString(out.resolve("via-sym")));
        assertEquals("TOP-SECRET-42", Files.readString(out.resolve("via-hard")));
    }

    @Test
    void programOutsideTheReadGrantsIsNotExecutedAndSaysWhy() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path tool = bin.resolve("tool");
        Files.writeString(tool, "#!/bin/sh\necho ran > " + out.resolve("tool-ran") + "\n");
        tool.toFile().setExecutable(true);
        var spec = new io.aasm.ports.backend.ExecutionSpec(tool.toString(), java.util.List.of(), tmp.toString(),
                io.aasm.ports.backend.IdentityRef.anonymous(), java.util.List.of(read(), write(out.toString())),
                java.util.Map.of(), io.aasm.ports.backend.CredentialPosture.none(), new io.aasm.ports.backend.Stdio.Inherit());
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.aasm.ports.backend.LaunchException.class, () -> h.run(spec));
        assertTrue(e.getMessage().contains("read grants"), e.getMessage());
        assertFalse(Files.exists(out.resolve("tool-ran")));
        var granted = new io.aasm.ports.backend.ExecutionSpec(tool.toString(), java.util.List.of(), tmp.toString(),
                io.aasm.ports.backend.IdentityRef.anonymous(), java.util.List.of(read(bin.toString()), write(out.toString())),
                java.util.Map.of(), io.aasm.ports.backend.CredentialPosture.none(), new io.aasm.ports.backend.Stdio.Inherit());
        h.run(granted);
        assertTrue(Files.exists(out.resolve("tool-ran")), "control: with its directory granted the program runs");
    }

    @Test
    void missingGrantedPathRefusesBeforeLaunch() throws Exception {
        Path marker = out.resolve("ran");
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.aasm.ports.backend.LaunchException.class,
                () -> h.sh("touch " + marker, tmp, read(tmp.resolve("nope").toString()), write(out.toString())));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertFalse(Files.exists(marker));
    }
}
