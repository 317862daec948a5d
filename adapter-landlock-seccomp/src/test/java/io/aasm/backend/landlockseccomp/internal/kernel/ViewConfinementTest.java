package io.aasm.backend.landlockseccomp.internal.kernel;

import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.read;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.req;
import static io.aasm.backend.landlockseccomp.internal.kernel.Harness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The filesystem view: what is not granted does not exist (and cannot be watched), read grants are
 * read-only mounts (metadata included), /proc grants bind the program's own procfs, and the standard
 * device set is there without a grant. Every denial has its one-grant control; actors are grandchildren.
 */
class ViewConfinementTest {
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
    void whatIsNotGrantedDoesNotExist() throws Exception {
        String action = "ls " + secret + " > " + out.resolve("ls") + " 2>&1";
        h.sh(action, tmp, read(), write(out.toString()));
        String denied = Files.readString(out.resolve("ls"));
        assertTrue(denied.contains("No such file or directory"), "absent, not merely unreadable: " + denied);
        assertFalse(denied.contains("key"));
        h.sh(action, tmp, read(secret.toString()), write(out.toString()));
        assertEquals("key\n", Files.readString(out.resolve("ls")), "control: a granted folder is listed");
    }

    @Test
    void theRootListsTheGrantedPathsAndNothingElse() throws Exception {
        Path listing = out.resolve("root");
        String action = "ls / > " + listing + " 2>&1";
        h.sh(action, tmp, read(), write(out.toString()));
        List<String> names = Files.readAllLines(listing);
        assertTrue(names.containsAll(List.of("usr", "etc", "dev", "tmp")), "the view's root is listable: " + names);
        assertFalse(names.contains("var"), "an ungranted folder is not there: " + names);
        assertTrue(Files.isDirectory(Path.of("/var")), "the host has /var");
        h.sh(action, tmp, read("/var"), write(out.toString()));
        assertTrue(Files.readAllLines(listing).contains("var"), "control: granted, it is listed: "
                + Files.readAllLines(listing));
    }

    @Test
    void metadataOfAReadOnlyGrantCannotChange() throws Exception {
        Path f = secret.resolve("key");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        Files.setLastModifiedTime(f, FileTime.fromMillis(1_000_000_000_000L));
        String action = "chmod 666 " + f + "; touch -d 2001-01-01 " + f + "; chown 65534 " + f;
        h.sh(action, tmp, read(secret.toString()), write(out.toString()));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertEquals(1_000_000_000_000L, Files.getLastModifiedTime(f).toMillis());
        assertEquals(0, (int) (Integer) Files.getAttribute(f, "unix:uid"), "owner unchanged");
        h.sh("chmod 666 " + f, tmp, read(), write(out.toString(), secret.toString()));
        assertEquals("rw-rw-rw-", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)),
                "control: under a write grant the mode changes");
    }

    @Test
    void aFolderOutsideTheGrantsCannotBeWatched() throws Exception {
        Path ready = out.resolve("ready");
        Path seen = out.resolve("seen");
        // inotify through ctypes: watch the folder, say so, then record the names created in it for 5 s.
        Path script = Files.writeString(out.resolve("watch.py"), String.join("\n",
                "import ctypes, os, select, struct, sys",
                "libc = ctypes.CDLL(None, use_errno=True)",
                "fd = libc.inotify_init1(0)",
                "wd = libc.inotify_add_watch(fd, sys.argv[1].encode(), 0x100)",
                "open(sys.argv[2], 'w').write('watch %d errno %d' % (wd, ctypes.get_errno()))",
                "names = []",
                "while wd >= 0 and select.select([fd], [], [], 5)[0]:",
                "    data = os.read(fd, 4096)",
                "    names.append(data[16:].split(b'\\0')[0].decode())",
                "    break",
                "open(sys.argv[3], 'w').write(','.join(names))", ""));
        String action = "python3 " + script + " " + secret + " " + ready + " " + seen;
        for (boolean granted : new boolean[] {false, true}) {
            Files.deleteIfExists(ready);
            Files.deleteIfExists(seen);
            String name = "made-by-host-" + granted;
            var handle = h.start(Harness.grandchild("/bin/sh", action, tmp, Map.of(), List.of(
                    granted ? read(secret.toString()) : read(), write(out.toString()))));
            for (int i = 0; i < 200 && !Files.exists(ready); i++) {
                Thread.sleep(25);
            }
            Files.writeString(secret.resolve(name), "x");
            handle.await();
            String result = Files.exists(seen) ? Files.readString(seen) : "";
            if (granted) {
                assertEquals(name, result, "control: a granted folder can be watched (" + Files.readString(ready) + ")");
            } else {
                assertFalse(result.contains(name), "an ungranted folder was watched: " + result);
                assertTrue(Files.readString(ready).contains("errno 2"), "ENOENT: " + Files.readString(ready));
            }
        }
    }

    /**
     * With only reads stated the view still holds only the read grants: a host tree left in place would keep
     * every pathname socket outside them connectable (Landlock ABI 7 does not check connect).
     */
    @Test
    void readsAloneStillHideASocketOutsideTheGrants() throws Exception {
        Path sock = secret.resolve("s");
        Path report = out.resolve("connect");
        String py = "import socket\ns = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect('" + sock + "')\n"
                + "    s.sendall(b'LEAK')\n    r = 'sent'\nexcept OSError as e:\n    r = 'errno %d' % e.errno\n"
                + "open('" + report + "', 'w').write(r)\n";
        Path script = Files.writeString(out.resolve("c.py"), py);
        try (var server = java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            server.bind(java.net.UnixDomainSocketAddress.of(sock));
            server.configureBlocking(false);
            for (boolean granted : new boolean[] {false, true}) {
                // writes unstated: the read grants (out/ among them) are read-write in the view
                h.sh("python3 " + script, tmp, granted ? read(out.toString(), secret.toString()) : read(out.toString()));
                StringBuilder got = new StringBuilder();
                try (var c = server.accept()) {
                    if (c != null) {
                        var buf = java.nio.ByteBuffer.allocate(16);
                        c.read(buf);
                        got.append(new String(buf.array(), 0, buf.position()));
                    }
                }
                if (granted) {
                    assertEquals("LEAK", got.toString(), "control: a granted socket is reached: "
                            + Files.readString(report));
                } else {
                    assertEquals("", got.toString(), "no byte reached the listener outside the grants");
                    assertEquals("errno 2", Files.readString(report), "ENOENT: the socket is absent");
                }
            }
        }
    }

    @Test
    void aProcGrantUnderCredentialsCoversTheProgramsOwnProc() throws Exception {
        var cred = req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of()));
        String action = "head -c 200 /proc/self/status > " + out.resolve("status") + "; ls /proc/self/fd > "
                + out.resolve("fds");
        h.sh(action, tmp, read("/proc"), write(out.toString()), cred);
        assertTrue(Files.readString(out.resolve("status")).contains("Pid:"), "the granted /proc is the program's own");
        assertTrue(Files.readString(out.resolve("fds")).contains("0"));
        Files.delete(out.resolve("status"));
        h.sh(action, tmp, read(), write(out.toString()), cred);
        assertFalse(Files.exists(out.resolve("status")) && Files.readString(out.resolve("status")).contains("Pid:"),
                "without the grant /proc is not there");
    }

    @Test
    void theStandardDeviceSetNeedsNoGrantAndHidesEverythingElse() throws Exception {
        String action = "echo gone > /dev/null && head -c 8 /dev/urandom | wc -c > " + out.resolve("random")
                + "; ls /dev > " + out.resolve("dev") + "; ls /dev/kmsg 2> " + out.resolve("kmsg");
        h.sh(action, tmp, read(), write(out.toString()));
        assertEquals("8", Files.readString(out.resolve("random")).strip());
        List<String> dev = Files.readAllLines(out.resolve("dev"));
        assertTrue(dev.containsAll(List.of("null", "zero", "full", "random", "urandom", "tty", "pts", "ptmx", "shm")),
                dev.toString());
        assertFalse(dev.contains("kmsg"), "only the standard set: " + dev);
        assertTrue(Files.readString(out.resolve("kmsg")).contains("No such file"));
        assertTrue(Files.exists(Path.of("/dev/kmsg")), "control: the host has it");
    }

    @Test
    void theProgramHoldsNoCapabilityAndTheReportSaysSoFromItsOwnStatus() throws Exception {
        var handle = h.start(Harness.grandchild("/bin/sh", "mknod " + out.resolve("nul") + " c 1 3", tmp, Map.of(),
                List.of(read(), write(out.toString()))));
        handle.await();
        assertFalse(Files.exists(out.resolve("nul")), "mknod needs CAP_MKNOD, which the program never holds");
        var authority = handle.authority().orElseThrow();
        assertTrue(authority.measured(), authority.toString());
        assertTrue(authority.clean(), authority.toString());
        assertTrue(authority.seccomp().startsWith("filter"), authority.toString());
    }
}
