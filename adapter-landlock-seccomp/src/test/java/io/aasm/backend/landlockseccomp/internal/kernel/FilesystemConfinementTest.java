package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    /**
     * A read grant bound read-only carries Landlock's truncate (ReadOnlyTruncate: the open() check then stops at the
     * grant): truncate(2), open(O_TRUNC) and ftruncate(2) of a read-only descriptor still change nothing there, also
     * with a write grant beneath it; control by one grant: the same folder granted for writing is truncated.
     */
    @Test
    void readOnlyGrantWithTruncateRightStillCannotBeTruncated() throws Exception {
        Path ro = Files.createDirectories(tmp.resolve("ro"));
        Path scratch = Files.createDirectories(ro.resolve("scratch"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        byte[] original = "keep these bytes\n".getBytes();
        for (String f : List.of("a", "b", "c")) {
            Files.write(ro.resolve(f), original);
        }
        Path script = Files.writeString(bin.resolve("trunc.py"), String.join("\n",
                "import os, sys",
                "d, out = sys.argv[1], sys.argv[2]",
                "res = []",
                "def attempt(name, fn):",
                "    try:",
                "        fn()",
                "        res.append(name + '=ok')",
                "    except OSError as e:",
                "        res.append(name + '=' + str(e.errno))",
                "attempt('truncate', lambda: os.truncate(os.path.join(d, 'a'), 0))",
                "attempt('o_trunc', lambda: os.close(os.open(os.path.join(d, 'b'), os.O_WRONLY | os.O_TRUNC)))",
                "def ftrunc():",
                "    fd = os.open(os.path.join(d, 'c'), os.O_RDONLY)",
                "    try:",
                "        os.ftruncate(fd, 0)",
                "    finally:",
                "        os.close(fd)",
                "attempt('ftruncate', ftrunc)",
                "open(out, 'w').write(' '.join(res))", ""));
        Path result = scratch.resolve("result");
        String action = "python3 " + script + " " + ro + " " + result;
        var readSpec = Harness.grandchild("/bin/sh", action, tmp, java.util.Map.of(),
                List.of(read(ro.toString(), bin.toString()), write(scratch.toString())));
        assertTrue(Harness.plan(h.backend, readSpec).backendPlan().steps(readSpec.requirements().get(0)).stream()
                .anyMatch(s -> s.contains("truncate also beneath the read-only mounts")), "the read grant carries truncate");
        h.run(readSpec);
        for (String f : List.of("a", "b", "c")) {
            assertArrayEquals(original, Files.readAllBytes(ro.resolve(f)), f + " changed");
        }
        assertEquals("truncate=30 o_trunc=30 ftruncate=22", Files.readString(result), "EROFS, EROFS, EINVAL");
        h.sh(action, tmp, read(bin.toString()), write(ro.toString()));
        for (String f : List.of("a", "b")) {
            assertEquals(0, Files.size(ro.resolve(f)), "control: " + f + " is truncated where writes are granted");
        }
        // ftruncate needs a descriptor opened for writing wherever the file is
        assertEquals("truncate=ok o_trunc=ok ftruncate=22", Files.readString(result));
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
