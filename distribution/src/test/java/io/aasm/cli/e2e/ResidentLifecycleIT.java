package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** start/status/stop, a stale socket (left by a kernel that died), the cold fall back and autostart. */
class ResidentLifecycleIT {

    /** A socket file nobody listens on, as a killed kernel leaves it (closing does not unlink it). */
    private static void staleSocketAt(Path sock) throws Exception {
        try (ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.bind(UnixDomainSocketAddress.of(sock));
        }
        assertTrue(Files.exists(sock));
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void aStaleSocketMeansColdOnceAndIsReplacedByTheNextKernel() throws Exception {
        ResidentKernel k = ResidentKernel.prepare();
        Path cwd = k.runtimeDir;
        staleSocketAt(k.socket);

        Aasm.Result status = k.status();
        assertEquals(3, status.exit(), status.toString());
        assertTrue(status.out().contains("not running"), status.toString());

        Aasm.Result cold = Aasm.run(Aasm.DIST, cwd, k.env(), "run", "exec", "--isolation", "none", "--",
                "sh", "-c", "echo cold; exit 6");
        assertEquals(6, cold.exit(), cold.toString());
        assertEquals("cold\n", cold.out(), cold.toString());
        assertEquals(1, count(cold.err(), "no resident kernel at " + k.socket + "; running cold"), cold.toString());
        assertFalse(Files.exists(k.socket), "the client left the stale socket behind");

        staleSocketAt(k.socket);
        try {
            k.startHere(Map.of());
            assertTrue(k.log().contains("replaced a stale socket at " + k.socket), k.log());
            assertEquals(0, k.status().exit());
            Aasm.Result hot = Aasm.run(Aasm.DIST, cwd, k.env(), "run", "exec", "--isolation", "none", "--",
                    "sh", "-c", "echo hot; exit 6");
            assertEquals(6, hot.exit(), hot.toString());
            assertEquals("hot\n", hot.out(), hot.toString());
            assertFalse(hot.err().contains("running cold"), hot.toString());
            Aasm.Result again = Aasm.run(Aasm.DIST, cwd, k.env(), "daemon", "start");
            assertTrue(again.out().contains("already running pid="), again.toString());
        } finally {
            Aasm.Result stop = Aasm.run(Aasm.DIST, cwd, k.env(), "daemon", "stop");
            assertEquals(0, stop.exit(), stop.toString());
        }
        assertFalse(Files.exists(k.socket), "a stopped kernel left its socket");
        assertEquals(3, k.status().exit());
    }

    @Test
    void autostartBringsTheKernelUpForTheFirstRun() throws Exception {
        ResidentKernel k = ResidentKernel.prepare();
        try {
            Aasm.Result r = Aasm.run(Aasm.DIST, k.runtimeDir, Map.of("AASM_AUTOSTART", "1", "XDG_RUNTIME_DIR",
                    k.runtimeDir.toString()), "run", "exec", "--isolation", "none", "--", "sh", "-c", "echo up; exit 4");
            assertEquals(4, r.exit(), r + "\n--- log ---\n" + k.log());
            assertEquals("up\n", r.out(), r.toString());
            assertFalse(r.err().contains("running cold"), r.toString());
            Aasm.Result status = k.status();
            assertEquals(0, status.exit(), status.toString());
            assertTrue(status.out().contains("running pid="), status.toString());
        } finally {
            k.close();
        }
    }
}
