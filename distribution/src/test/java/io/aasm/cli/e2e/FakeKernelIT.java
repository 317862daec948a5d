package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A confined program that could put a socket where the resident kernel's belongs would get the next
 * caller's request (argv, environment, terminal). The client judges the process serving the socket before it
 * sends a byte: one running with no_new_privs (inside a boundary) is not used, and the client runs cold.
 * Control: the same stand-in without no_new_privs receives the request.
 */
class FakeKernelIT {
    private static final String FAKE = "import socket, sys\n"
            + "s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(1)\n"
            + "open(sys.argv[2], 'w').write('listening')\n"
            + "s.settimeout(60); c, _ = s.accept(); c.settimeout(5)\n"
            + "data = b''\n"
            + "try:\n    while len(data) < 4:\n        chunk = c.recv(65536)\n        if not chunk: break\n"
            + "        data += chunk\nexcept Exception:\n    pass\n"
            + "open(sys.argv[3], 'wb').write(data)\n";

    @Test
    void aServerInsideABoundaryNeverHearsTheCaller() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")),
                "environment cannot host this check: no setpriv to run the stand-in with no_new_privs");
        for (boolean confined : new boolean[] {true, false}) {
            Path rt = Files.createTempDirectory(Aasm.DIST.toAbsolutePath().getParent(), "fk",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path script = Files.writeString(rt.resolve("fake.py"), FAKE);
            Path ready = rt.resolve("ready");
            Path heard = rt.resolve("heard");
            List<String> cmd = new ArrayList<>();
            if (confined) {
                cmd.addAll(List.of("/usr/bin/setpriv", "--no-new-privs"));
            }
            cmd.addAll(List.of("python3", script.toString(), rt.resolve("aasm.sock").toString(), ready.toString(),
                    heard.toString()));
            Process fake = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            try {
                for (int i = 0; i < 200 && !Files.exists(ready); i++) {
                    Thread.sleep(25);
                }
                Aasm.Result r = Aasm.run(Aasm.DIST, rt, Map.of("XDG_RUNTIME_DIR", rt.toString()), "run", "exec",
                        "--isolation", "none", "--", "/bin/true");
                fake.waitFor(20, TimeUnit.SECONDS);
                // the request is binary framing: read it byte for byte
                String got = Files.exists(heard)
                        ? new String(Files.readAllBytes(heard), java.nio.charset.StandardCharsets.ISO_8859_1) : "";
                if (confined) {
                    assertTrue(r.err().contains("not using the process serving"), r.toString());
                    assertEquals(0, r.exit(), "it ran cold instead: " + r);
                    assertEquals("", got, "the stand-in inside a boundary heard the caller");
                } else {
                    assertTrue(got.startsWith("AASM"), "control: an unconfined stand-in receives the request: " + got
                            + "\n" + r);
                }
            } finally {
                fake.destroyForcibly();
            }
        }
    }
}
