package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Without {@code XDG_RUNTIME_DIR} (and with no {@code /run/user/UID} of the user's) the resident kernel's
 * runtime directory is {@code $XDG_CACHE_HOME/aasm/run}, never {@code /tmp/aasm-UID}: the runtime directory
 * is a protected path, and sandlock, which cannot keep a folder read-only beneath a write grant, refused every
 * /tmp write grant while it lay there. Every run here is cold with {@code XDG_RUNTIME_DIR} removed; the acting
 * process is a grandchild and the effect is a file there or not.
 */
class RuntimeDirFallbackIT {
    private static final Path RUNTIME = Aasm.CACHE.resolve("aasm").resolve("run");
    private static Path scratch;

    @BeforeAll
    static void noRunUserDir() throws Exception {
        String uid = new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).strip();
        Assumptions.assumeFalse(Files.isDirectory(Path.of("/run/user", uid)), "environment cannot host this check:"
                + " /run/user/" + uid + " exists, so the fallback to aasm's cache is never taken here");
        scratch = Aasm.outsideTmp("rtdir-");
    }

    private static Aasm.Result run(String backend, List<Path> writes, String act) throws Exception {
        StringBuilder w = new StringBuilder();
        writes.forEach(p -> w.append(w.length() == 0 ? "" : ", ").append(p));
        Path policy = Files.writeString(Files.createTempFile(scratch, "policy", ".yaml"), "apiVersion: aasm/v1\n"
                + "kind: Policy\nfilesystem:\n  read: {allow: [/usr, /bin, /lib, /lib64, /etc]}\n"
                + "  write: {allow: [" + w + "]}\n");
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/env", "-u", "XDG_RUNTIME_DIR",
                Aasm.DIST.resolve("bin/aasm").toString(), "run", "exec", "--isolation", "process",
                "--isolation-backend", backend, "--policy", policy.toString(), "--",
                "/bin/sh", "-c", "/bin/sh -c '" + act + "'"));
        Aasm.Result r = Aasm.command(scratch, Map.of("AASM_CLIENT", "off"), cmd);
        assertFalse(r.err().contains("/tmp/aasm-"), "a runtime directory under /tmp: " + r);
        return r;
    }

    /** The directory the boot jar made for the kernel's socket: the user's, 0700, in aasm's cache. */
    private static void assertRuntimeDirInCache() throws Exception {
        assertTrue(Files.isDirectory(RUNTIME), "no runtime directory at " + RUNTIME);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(RUNTIME)));
    }

    @Test
    void aSandlockLaunchMayWriteTmpWhileTheRuntimeDirStaysProtected() throws Exception {
        Assumptions.assumeTrue(SurroundingsConformanceIT.sandlockFound(), "environment cannot host this check: no"
                + " sandlock executable (set AA_SANDLOCK_BIN)");
        Path inTmp = Files.createTempDirectory(Path.of("/tmp"), "aasm-rtdir-");
        try {
            Aasm.Result granted = run("sandlock", List.of(Path.of("/tmp")), "echo ran > " + inTmp + "/marker");
            assertEquals(0, granted.exit(), granted.toString());
            assertEquals("ran\n", Files.readString(inTmp.resolve("marker")), granted.toString());
            assertRuntimeDirInCache();
            // control, one grant wider: a write grant over the runtime directory is still refused before start
            Files.delete(inTmp.resolve("marker"));
            Aasm.Result over = run("sandlock", List.of(Path.of("/tmp"), Aasm.CACHE), "echo ran > " + inTmp + "/marker");
            assertEquals(125, over.exit(), over.toString());
            assertTrue(over.err().contains("write grant " + Aasm.CACHE), over.toString());
            assertFalse(Files.exists(inTmp.resolve("marker")), "a refused launch ran its program: " + over);
        } finally {
            Files.deleteIfExists(inTmp.resolve("marker"));
            Files.deleteIfExists(inTmp);
        }
    }

    @Test
    void theRuntimeDirIsReadOnlyInsideAasmNative() throws Exception {
        Path ordinary = Files.createDirectories(Aasm.CACHE.resolve("ordinary"));
        Path planted = RUNTIME.resolve("planted.sock");
        Files.deleteIfExists(planted);
        Files.deleteIfExists(ordinary.resolve("planted.sock"));
        // the write grant covers aasm's cache folder and with it the runtime directory inside
        Aasm.Result hostile = run("aasm-native", List.of(Aasm.CACHE), "echo evil > " + planted);
        assertRuntimeDirInCache();
        assertFalse(Files.exists(planted), "the program wrote into the runtime directory: " + hostile);
        assertTrue(hostile.err().contains("Read-only file system"), hostile.toString());
        // control, the same grant: an ordinary folder beside aasm's is writable
        Aasm.Result control = run("aasm-native", List.of(Aasm.CACHE), "echo ran > " + ordinary + "/planted.sock");
        assertEquals(0, control.exit(), control.toString());
        assertEquals("ran\n", Files.readString(ordinary.resolve("planted.sock")), control.toString());
    }
}
