package io.aasm.backend.container.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.NativeLong;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A caller at a terminal (a pseudo-terminal of the test's own, handed over as descriptors the way a resident
 * kernel's client does): the program gets a terminal of the container's own with the caller's size, never
 * the caller's, and the caller's terminal modes are back as they were once the launch ended. The same with
 * processes stated as none, where the init makes its canaries and then becomes the program in place.
 */
class TerminalTest {
    @TempDir
    Path t;

    /** What the caller's terminal showed, and the launch's end. */
    private record Screen(ExitDisposition exit, String seen) {
    }

    private Screen onTerminal(String action, List<ControlRequirement> reqs) throws Exception {
        int master = Fds.C.posix_openpt(Fds.O_RDWR | Fds.O_NOCTTY);
        assertTrue(master >= 0 && Fds.C.grantpt(master) == 0 && Fds.C.unlockpt(master) == 0);
        String slaveName = Fds.C.ptsname(master);
        int slave = Fds.C.open(slaveName, Fds.O_RDWR | Fds.O_NOCTTY, 0);
        byte[] size = {33, 0, 101, 0, 0, 0, 0, 0};
        assertEquals(0, Fds.C.ioctl(slave, new NativeLong(Fds.TIOCSWINSZ), size));
        byte[] before = new byte[64];
        Fds.C.tcgetattr(slave, before);
        java.io.ByteArrayOutputStream screen = new java.io.ByteArrayOutputStream();
        Thread drain = new Thread(() -> {
            byte[] b = new byte[4096];
            for (long n; (n = Fds.C.read(master, b, b.length)) > 0; ) {
                synchronized (screen) {
                    screen.write(b, 0, (int) n); // the caller's screen: what the program printed
                }
            }
        });
        drain.setDaemon(true);
        drain.start();
        try {
            ExitDisposition d = Harness.shared().run(new io.aasm.ports.backend.ExecutionSpec("/bin/sh",
                    List.of("-c", action), t.toString(), io.aasm.ports.backend.IdentityRef.anonymous(), reqs,
                    Map.of("PATH", "/usr/bin:/bin"), io.aasm.ports.backend.CredentialPosture.none(),
                    new Stdio.Descriptors(slave, slave, slave)));
            String seen = "";
            for (int i = 0; i < 40 && !seen.contains("on-screen"); i++) {
                Thread.sleep(50);
                synchronized (screen) {
                    seen = screen.toString(java.nio.charset.StandardCharsets.UTF_8);
                }
            }
            byte[] after = new byte[64];
            Fds.C.tcgetattr(slave, after);
            assertArrayEquals(before, after, "the caller's terminal modes were restored");
            return new Screen(d, seen);
        } finally {
            Fds.C.close(slave);
            Fds.C.close(master);
        }
    }

    @Test
    void theProgramGetsATerminalOfItsOwnWithTheCallersSizeAndTheCallersModesComeBack() throws Exception {
        Path out = Files.createDirectories(t.resolve("out"));
        Screen s = onTerminal("sh -c 'tty > " + out + "/tty; stty size > " + out + "/size; test -t 0 && echo yes > "
                + out + "/isatty; echo on-screen; :'; :", List.of(Harness.read(t.toString()),
                Harness.write(out.toString())));
        assertEquals(new ExitDisposition.Exited(0), s.exit());
        assertEquals("yes", Files.readString(out.resolve("isatty")).strip(), "stdin is a terminal inside");
        assertTrue(Files.readString(out.resolve("tty")).startsWith("/dev/pts/"), "a pseudo-terminal");
        assertEquals("33 101", Files.readString(out.resolve("size")).strip(), "the caller's size");
        assertTrue(s.seen().contains("on-screen"), "the program's output reached the caller's terminal: " + s.seen());
        // the init's canary record (the read canary runs here) is taken by the relay, never shown
        assertFalse(s.seen().contains("aasm-canary"), "the canary record reached the caller's screen: " + s.seen());
    }

    /** Processes none: no fork anywhere, so builtins and a final exec; the init sized the terminal first. */
    @Test
    void withProcessesNoneTheInitInPlaceSizesTheTerminalAndItsRecordIsNeverShown() throws Exception {
        Path out = Files.createDirectories(t.resolve("out"));
        List<ControlRequirement> reqs = new ArrayList<>(List.of(Harness.read(t.toString()),
                Harness.write(out.toString()), Harness.req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain())));
        Screen s = onTerminal("test -t 0 && echo yes > " + out + "/isatty; echo $$ > " + out + "/pid; echo on-screen; "
                + "exec stty size > " + out + "/size", reqs);
        assertEquals(new ExitDisposition.Exited(0), s.exit());
        assertEquals("yes", Files.readString(out.resolve("isatty")).strip(), "stdin is a terminal inside");
        assertEquals("1", Files.readString(out.resolve("pid")).strip(), "the init became the program: pid 1");
        assertEquals("33 101", Files.readString(out.resolve("size")).strip(), "the caller's size, set by the init");
        assertTrue(s.seen().contains("on-screen"), "the program's output reached the caller's terminal: " + s.seen());
        assertFalse(s.seen().contains("aasm-canary"), "the canary record reached the caller's screen: " + s.seen());
    }
}
