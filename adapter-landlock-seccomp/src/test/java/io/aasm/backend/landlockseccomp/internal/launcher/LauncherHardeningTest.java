package io.aasm.backend.landlockseccomp.internal.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.host.Arch;
import io.aasm.backend.landlockseccomp.internal.seccomp.BaselineFilter;
import io.aasm.backend.landlockseccomp.internal.seccomp.FilterCompiler;
import io.aasm.backend.landlockseccomp.internal.seccomp.Libseccomp;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DROP_CAPS and the fail-closed baseline filter, each against the same plan without it (the control).
 * The tests run as root, where the difference is largest: root keeps every capability unless dropped.
 */
class LauncherHardeningTest {
    @TempDir
    Path dir;

    static byte[] baseline;

    @BeforeAll
    static void filter() {
        Assumptions.assumeTrue(Libseccomp.available(), "environment cannot host this check: no libseccomp.so.2");
        Assumptions.assumeTrue(System.getProperty("os.arch").equals("amd64"),
                "environment cannot host this check: the syscall numbers below are x86_64's");
        baseline = BaselineFilter.build(Arch.X86_64, new FilterCompiler(Libseccomp.load()).firstUnknownNumber());
    }

    private static void assumeRoot() {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "environment cannot host this check: the control needs root's capabilities");
    }

    private LauncherFixture.Result sh(String script, boolean hardened) throws Exception {
        PlanMessage.Builder b = LauncherFixture.sh("/bin/sh -c '" + script + "'; exit 0").noNewPrivs();
        if (hardened) {
            b.dropCaps().seccomp(0, baseline);
        }
        return LauncherFixture.run(b.build(), dir);
    }

    @Test
    void withoutCapabilitiesRootCannotMakeADevice() throws Exception {
        assumeRoot();
        Path node = dir.resolve("nul");
        LauncherFixture.Result r = sh("mknod " + node + " c 1 3", true);
        assertFalse(Files.exists(node), r.toString());
        assertTrue(r.process().transcript().stream().anyMatch(l -> l.startsWith("authority:CapInh=0000000000000000;"
                + "CapPrm=0000000000000000;CapEff=0000000000000000;CapBnd=0000000000000000;CapAmb=0000000000000000;"
                + "NoNewPrivs=1;Seccomp=2")), r.process().transcript().toString());
        sh("mknod " + node + " c 1 3", false);
        assertTrue(Files.exists(node), "control: root with its capabilities makes the device");
    }

    /** python3 calls the raw syscall and writes "<result> <errno>". */
    private String raw(String call, boolean hardened) throws Exception {
        Path out = dir.resolve("raw-" + hardened);
        Path py = Files.writeString(dir.resolve("raw.py"), "import ctypes, os, sys\n"
                + "libc = ctypes.CDLL(None, use_errno=True)\n"
                + "r = " + call + "\n"
                + "if r == 0: os._exit(0)  # the child of a clone that succeeded\n"
                + "open(sys.argv[2], 'w').write('%d %d' % (r, ctypes.get_errno()))\n");
        sh("python3 " + py + " \"" + call.replace("\"", "") + "\" " + out, hardened);
        return Files.readString(out);
    }

    @Test
    void cloneWithANamespaceFlagFailsWithEperm() throws Exception {
        assumeRoot();
        String call = "libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)"; // clone(CLONE_NEWUSER | SIGCHLD)
        assertEquals("-1 1", raw(call, true));
        assertTrue(Integer.parseInt(raw(call, false).split(" ")[0]) > 0, "control: the child is created");
    }

    @Test
    void clone3FailsWithEnosysSoLibcFallsBackToClone() throws Exception {
        String call = "libc.syscall(435, ctypes.create_string_buffer(88), 88)"; // clone3 with a zeroed clone_args
        assertEquals("-1 38", raw(call, true));
        assertFalse(raw(call, false).endsWith(" 38"), "control: the kernel knows clone3");
    }

    @Test
    void aSyscallBeyondTheFiltersTableFailsWithEnosys() throws Exception {
        int first = new FilterCompiler(Libseccomp.load()).firstUnknownNumber();
        // lsm_list_modules (461) reads which LSMs run: harmless, and newer than many libseccomp tables.
        Assumptions.assumeTrue(first <= 461, "environment cannot host this check: libseccomp here knows syscall 461");
        String call = "libc.syscall(461, ctypes.create_string_buffer(256), ctypes.byref(ctypes.c_uint32(256)), 0)";
        assertEquals("-1 38", raw(call, true));
        assertFalse(raw(call, false).startsWith("-1"), "control: the kernel answers lsm_list_modules");
    }

    @Test
    void keystrokeInjectionIntoATerminalFailsWithEperm() throws Exception {
        assumeRoot();
        Path out = dir.resolve("injected");
        // A pseudo-terminal of the program's own: as root, TIOCSTI works on any terminal unless denied.
        Path py = Files.writeString(dir.resolve("sti.py"), "import fcntl, os, pty, sys, termios, tty\n"
                + "m, s = pty.openpty()\n"
                + "tty.setraw(s)  # one byte, no line to wait for\n"
                + "try:\n    fcntl.ioctl(s, termios.TIOCSTI, b'X')\nexcept OSError as e:\n"
                + "    open(sys.argv[1], 'w').write('errno %d' % e.errno); sys.exit(0)\n"
                + "open(sys.argv[1], 'w').write('read ' + os.read(s, 1).decode())\n");
        sh("python3 " + py + " " + out, true);
        assertEquals("errno 1", Files.readString(out));
        sh("python3 " + py + " " + out, false);
        assertEquals("read X", Files.readString(out), "control: the byte is injected");
    }
}
