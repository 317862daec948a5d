package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
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
            // what the old fallback (/tmp/aasm-UID) did: a runtime directory under /tmp, here named through
            // XDG_RUNTIME_DIR, makes sandlock refuse the very /tmp grant the first run was given
            Path oldStyle = Files.createTempDirectory(Path.of("/tmp"), "aasm-rtdir-old-");
            try {
                Aasm.Result old = Aasm.command(scratch, Map.of("AASM_CLIENT", "off", "XDG_RUNTIME_DIR",
                        oldStyle.toString()), List.of(Aasm.DIST.resolve("bin/aasm").toString(), "run", "exec",
                        "--isolation", "process", "--isolation-backend", "sandlock", "--policy",
                        Files.writeString(scratch.resolve("tmp-only.yaml"), "apiVersion: aasm/v1\nkind: Policy\n"
                                + "filesystem:\n  read: {allow: [/usr, /bin, /lib, /lib64, /etc]}\n"
                                + "  write: {allow: [/tmp]}\n").toString(),
                        "--", "/bin/sh", "-c", "/bin/sh -c 'echo ran > " + inTmp + "/marker'"));
                assertEquals(125, old.exit(), old.toString());
                assertTrue(old.err().contains("write grant /tmp covers aasm's own state " + oldStyle), old.toString());
                assertFalse(Files.exists(inTmp.resolve("marker")), "a refused launch ran its program: " + old);
            } finally {
                Files.deleteIfExists(oldStyle);
            }
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

    /**
     * As uid 65534 (no /run/user of its own) the boot jar makes the fallback in that user's cache, and
     * bin/aasm and its C client find the kernel there by the same rule: before {@code daemon start} the client
     * names exactly that socket and runs cold (the control); after it, a run through bin/aasm reaches the
     * kernel, whose request log next to the socket gains a line.
     */
    @Test
    void theBootJarTheShFrontAndTheClientAgreeForAnUnprivilegedUser() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")) && "0".equals(new String(
                new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).strip()),
                "environment cannot host this check: switching to uid 65534 needs root and setpriv");
        Assumptions.assumeFalse(Files.isDirectory(Path.of("/run/user/65534")), "environment cannot host this check:"
                + " /run/user/65534 exists");
        Path base = SocketAttacker.outsideEveryGrant("rtdir-nobody-");
        own(base, "rwxr-xr-x");
        for (String d : List.of("cache", "home")) {
            own(Files.createDirectory(base.resolve(d)), "rwx------");
        }
        Map<String, String> env = new HashMap<>(Map.of("XDG_CACHE_HOME", base.resolve("cache").toString(),
                "HOME", base.resolve("home").toString()));
        Path sock = base.resolve("cache/aasm/run/aasm.sock");
        Aasm.Result cold = asNobody(base, env, "bin/aasm-client", "run", "exec", "--isolation", "none", "--", "/bin/true");
        assertEquals(0, cold.exit(), cold.toString());
        assertTrue(cold.err().contains("no resident kernel at " + sock + "; running cold"), cold.toString());
        Aasm.Result start = asNobody(base, env, "bin/aasm", "daemon", "start");
        assertEquals(0, start.exit(), start.toString());
        try {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(sock.getParent())));
            assertEquals(65534, Files.getAttribute(sock.getParent(), "unix:uid"));
            Path requests = sock.resolveSibling("aasm-requests.log");
            long before = Files.exists(requests) ? Files.readAllLines(requests).size() : 0;
            Aasm.Result resident = asNobody(base, env, "bin/aasm", "run", "exec", "--isolation", "none", "--", "/bin/true");
            assertEquals(0, resident.exit(), resident.toString());
            assertFalse(resident.err().contains("running cold"), resident.toString());
            // the kernel may log the request just after it answered: wait for the line, boundedly
            for (int i = 0; i < 100 && (!Files.exists(requests) || Files.readAllLines(requests).size() <= before); i++) {
                Thread.sleep(100);
            }
            assertTrue(Files.readAllLines(requests).size() > before, "the kernel logged no request: " + resident);
            Aasm.Result status = asNobody(base, env, "bin/aasm", "daemon", "status", "--json");
            assertTrue(status.out().contains("\"socket\": \"" + sock + "\""), status.toString());
        } finally {
            asNobody(base, env, "bin/aasm", "daemon", "stop");
        }
    }

    /** {@code program} (bin/aasm or bin/aasm-client) as uid 65534, without XDG_RUNTIME_DIR; its state in its home. */
    private static Aasm.Result asNobody(Path base, Map<String, String> env, String program, String... args)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "/usr/bin/env", "-u", "XDG_RUNTIME_DIR", "-u", "XDG_STATE_HOME",
                Aasm.DIST.toAbsolutePath().resolve(program).toString()));
        cmd.addAll(List.of(args));
        return Aasm.command(base.resolve("home"), env, cmd);
    }

    private static void own(Path p, String mode) throws Exception {
        Files.setAttribute(p, "unix:uid", 65534);
        Files.setAttribute(p, "unix:gid", 65534);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
    }
}
