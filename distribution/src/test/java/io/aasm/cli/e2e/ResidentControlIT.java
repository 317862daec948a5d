package io.aasm.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nobody inside a boundary controls the resident kernel: a confined program's stop and status frames
 * are refused and the kernel keeps serving (control: the same stop frame from outside stops it).
 */
class ResidentControlIT {

    @Test
    void aConfinedProgramCanNeitherStopNorQueryTheKernel(@TempDir Path cwd) throws Exception {
        ResidentEscapeIT.assumeAttacker();
        ResidentKernel k = ResidentKernel.start(Map.of());
        try {
            long pid = k.pid();
            for (char kind : new char[] {'T', 'Q'}) {
                List<String> args = new ArrayList<>(List.of("run", "exec", "--isolation", "process",
                        "--isolation-backend", "aasm-native", "--policy",
                        SocketAttacker.defaultPolicyReaching(k.socket, cwd).toString(), "--"));
                args.addAll(SocketAttacker.argv(k.socket, kind, Aasm.DIST.toRealPath(), List.of()));
                Aasm.Result r = Aasm.run(Aasm.DIST, cwd, Map.of("AASM_CLIENT", "off", "XDG_RUNTIME_DIR",
                        k.runtimeDir.toString()), args.toArray(new String[0]));
                assertTrue(r.err().contains("aasm: posture=READY backend=aasm-native"), r.toString());
                assertTrue(r.out().startsWith("frame E aasm: the resident kernel "), kind + ": " + r);
                assertTrue(r.out().contains("a caller inside a boundary the kernel is not in"), kind + ": " + r);
                Thread.sleep(500); // a stop, had it been accepted, takes effect asynchronously
                assertEquals(pid, k.pid(), kind + ": the kernel did not keep running\n" + k.log());
            }
            assertTrue(k.log().contains("stop request from a caller inside a boundary the kernel is not in"), k.log());
            assertTrue(k.log().contains("status request from a caller inside a boundary the kernel is not in"), k.log());
            // control: the same stop frame from an unconfined caller stops the kernel
            Aasm.Result stop = Aasm.command(cwd, k.env(), SocketAttacker.argv(k.socket, 'T', Aasm.DIST.toRealPath(),
                    List.of()));
            assertTrue(stop.out().startsWith("frame I aasm: stopping the resident kernel"), stop.toString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (Files.exists(k.socket) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(3, k.status().exit(), "the unconfined stop did not stop the kernel");
        } finally {
            k.close();
        }
    }
}
