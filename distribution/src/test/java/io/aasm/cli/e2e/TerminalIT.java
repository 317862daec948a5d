package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The program never shares the caller's terminal session: on a real pseudo-terminal (driven by
 * pty_session.py as a user would type), an interactive shell inside the boundary keeps line editing, the
 * window size (and its changes), Ctrl-C and Ctrl-Z, on the cold and the resident path; and keystrokes it
 * injects with TIOCSTI never reach the caller's side of the terminal (control: the same program unconfined).
 * Each backend by name: aasm-native's launcher and sandlock's guard each make the launch's own terminal;
 * the sandlock cases are "environment cannot host this check" without a sandlock executable.
 */
class TerminalIT {
    static final String NATIVE = "aasm-native";
    static final String SANDLOCK = "sandlock";
    static ResidentKernel kernel;

    /** The sandlock cases run only where the distribution can find a sandlock (as the backend does). */
    private static void sandlockOrCannotHost() {
        String bin = System.getenv("AA_SANDLOCK_BIN");
        boolean found = bin != null && Files.isExecutable(Path.of(bin)) || java.util.Arrays.stream(System.getenv()
                .getOrDefault("PATH", "").split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, "sandlock")));
        org.junit.jupiter.api.Assumptions.assumeTrue(found, "environment cannot host this check: no sandlock"
                + " executable (set AA_SANDLOCK_BIN)");
    }

    @BeforeAll
    static void start() throws Exception {
        kernel = ResidentKernel.start(Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (kernel != null) {
            kernel.close();
        }
    }

    private static JsonNode session(String scenario, Map<String, String> env, String... aasmArgs) throws Exception {
        Path driver = Path.of("src/test/resources/e2e/pty_session.py").toAbsolutePath();
        List<String> cmd = new ArrayList<>(List.of("python3", driver.toString(), scenario, "--",
                Aasm.DIST.resolve("bin/aasm").toAbsolutePath().toString()));
        cmd.addAll(List.of(aasmArgs));
        Path cwd = Aasm.outsideTmp("pty");
        Aasm.Result r = Aasm.command(cwd, env, cmd);
        assertEquals(0, r.exit(), r.toString());
        return new ObjectMapper().readTree(r.out());
    }

    private static void assertInteractive(JsonNode s) {
        String t = s.get("transcript").asText();
        assertTrue(s.get("prompt").asBoolean(), "the shell answered: " + t);
        assertTrue(s.get("size").asBoolean(), "the program's terminal has the caller's size: " + t);
        assertTrue(s.get("resized").asBoolean(), "a resize reaches the program's terminal: " + t);
        assertTrue(s.get("edited").asBoolean(), "line editing works inside: " + t);
        assertTrue(s.get("interrupted").asBoolean(), "Ctrl-C interrupts the foreground job inside: " + t);
        assertTrue(s.get("stopped").asBoolean(), "Ctrl-Z stops the foreground job inside: " + t);
        assertEquals(7, s.get("exit").asInt(), t);
        assertEquals("", s.get("caller_input").asText(), "nothing was left in the caller's input");
    }

    private static JsonNode interactive(Map<String, String> env, String backend) throws Exception {
        return session("interactive", env, "run", "exec", "--isolation", "auto", "--isolation-backend", backend, "--",
                "/bin/bash", "--norc", "--noprofile", "-i");
    }

    @Test
    void anInteractiveShellWorksOnTheColdPath() throws Exception {
        assertInteractive(interactive(Map.of("AASM_CLIENT", "off"), NATIVE));
    }

    @Test
    void anInteractiveShellWorksOnTheResidentPath() throws Exception {
        assertInteractive(interactive(kernel.env(), NATIVE));
    }

    @Test
    void anInteractiveShellWorksUnderSandlockOnTheColdPath() throws Exception {
        sandlockOrCannotHost();
        assertInteractive(interactive(Map.of("AASM_CLIENT", "off"), SANDLOCK));
    }

    @Test
    void anInteractiveShellWorksUnderSandlockOnTheResidentPath() throws Exception {
        sandlockOrCannotHost();
        assertInteractive(interactive(kernel.env(), SANDLOCK));
    }

    private static final String INJECT = "import fcntl, termios\n"
            + "for c in b'echo INJECTED\\n':\n"
            + "    try:\n        fcntl.ioctl(0, termios.TIOCSTI, bytes([c]))\n"
            + "    except OSError as e:\n        print('tiocsti: errno', e.errno); break\n";

    @Test
    void injectedKeystrokesNeverReachTheCallersTerminal() throws Exception {
        injectionStaysInside(NATIVE);
    }

    @Test
    void injectedKeystrokesNeverReachTheCallersTerminalUnderSandlock() throws Exception {
        sandlockOrCannotHost();
        injectionStaysInside(SANDLOCK);
    }

    private static void injectionStaysInside(String backend) throws Exception {
        Path script = Files.writeString(Aasm.outsideTmp("inject").resolve("inject.py"), INJECT);
        String read = script.getParent().toString();
        Path policy = Files.writeString(script.getParent().resolve("policy.yaml"), "apiVersion: aasm/v1\nkind: Policy\n"
                + "filesystem:\n  read: {allow: [/usr, /bin, /lib, /lib64, /etc, " + read + "]}\n"
                // a scratch folder of the test's own, not /tmp, which other tests share
                + "  write: {allow: [" + Aasm.outsideTmp("inject-scratch") + "]}\n");
        for (Map<String, String> env : List.of(Map.of("AASM_CLIENT", "off"), kernel.env())) {
            JsonNode confined = session("inject", env, "run", "exec", "--isolation", "auto", "--isolation-backend", backend,
                    "--policy", policy.toString(), "--",
                    "/usr/bin/python3", script.toString());
            assertFalse(confined.get("caller_input").asText().contains("INJECTED"), confined.toString());
            assertTrue(confined.get("transcript").asText().contains("tiocsti: errno 1"), confined.toString());
        }
        JsonNode unconfined = session("inject", Map.of("AASM_CLIENT", "off"), "run", "exec", "--isolation", "none",
                "--", "/usr/bin/python3", script.toString());
        assertTrue(unconfined.get("caller_input").asText().contains("echo INJECTED"),
                "control: unconfined, the keystrokes land in the caller's terminal: " + unconfined);
    }
}
