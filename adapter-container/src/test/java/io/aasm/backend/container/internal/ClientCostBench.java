package io.aasm.backend.container.internal;

import io.aasm.backend.container.internal.engine.Engine;
import io.aasm.backend.container.internal.engine.EngineFacts;
import io.aasm.backend.container.internal.engine.EngineSocket;
import io.aasm.ports.backend.ExitDisposition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * Not a test: the measured cost of this bundle's own Engine API client (docs/container.md). Run by hand in
 * a cold JVM: {@code java -cp <test classpath> io.aasm.backend.container.internal.ClientCostBench [n]}. Prints
 * the first connection (class loading included), a warm ping, and n launches of /bin/true through the backend.
 */
public final class ClientCostBench {
    private ClientCostBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        Path socket = ((EngineSocket.Located.Found) EngineSocket.locate(Optional.empty(), System.getenv())).socket();
        long t0 = System.nanoTime();
        Engine e = Engine.connect(socket);
        EngineFacts.read(e);
        long first = System.nanoTime() - t0;
        long[] pings = new long[20];
        for (int i = 0; i < pings.length; i++) {
            long t = System.nanoTime();
            e.versionInfo();
            pings[i] = System.nanoTime() - t;
        }
        Harness h = new Harness(new ContainerBackend(Settings.defaults().withProbeCacheDir(Harness.cacheDir())));
        h.backend.capabilities();
        Path cwd = Files.createTempDirectory("aasm-client-cost");
        long[] launches = new long[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            ExitDisposition d = h.sh("true", cwd, Harness.read());
            launches[i] = System.nanoTime() - t;
            if (d.shellStatus() != 0) {
                throw new IllegalStateException("launch " + i + " ended " + d);
            }
        }
        System.out.printf("first connection (ping, version, info; cold JVM): %.1f ms%n", first / 1e6);
        System.out.printf("GET /version, warm: median %.2f ms%n", median(pings) / 1e6);
        System.out.printf("/bin/true through plan+prepare+spawn+await: median %.1f ms (n=%d)%n", median(launches) / 1e6, n);
        System.out.printf("load average: %s%n", Files.readString(Path.of("/proc/loadavg")).strip());
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }
}
