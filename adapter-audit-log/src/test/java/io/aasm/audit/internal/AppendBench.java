package io.aasm.audit.internal;

import io.aasm.audit.internal.ChainedFile.HeadCache;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Not a test: the paired append benchmark of docs/audit.md. Two logs that already hold the same number of
 * records, one appended the old way (the tail read back and parsed every time) and one with the kept head;
 * the two alternate inside one loop, so load hits both alike. Prints the median and p95 of wall time and of
 * the appending thread's CPU time per append, and the load average before and after.
 *
 * <p>Run with the resident kernel's JIT setting: {@code java -XX:TieredStopAtLevel=1 -cp CP
 * io.aasm.audit.internal.AppendBench DIR [prefill] [appends]}.
 */
public final class AppendBench {
    private AppendBench() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        int prefill = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int appends = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        JsonlAuditLog old = new JsonlAuditLog(Files.createDirectories(root.resolve("old")), HeadCache.OFF);
        JsonlAuditLog kept = new JsonlAuditLog(Files.createDirectories(root.resolve("new")), HeadCache.CHECKED);
        for (int i = 0; i < prefill; i++) {
            old.append(Reports.launch(i % 256));
            kept.append(Reports.launch(i % 256));
        }
        double loadBefore = os.getSystemLoadAverage();
        long[][] wall = new long[2][appends];
        long[][] used = new long[2][appends];
        for (int i = 0; i < appends; i++) {
            for (int arm = 0; arm < 2; arm++) {
                int a = (i % 2 == 0) ? arm : 1 - arm; // alternate which arm goes first
                JsonlAuditLog log = a == 0 ? old : kept;
                long c0 = cpu.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                log.append(Reports.launch(i % 256));
                wall[a][i] = System.nanoTime() - t0;
                used[a][i] = cpu.getCurrentThreadCpuTime() - c0;
            }
        }
        double loadAfter = os.getSystemLoadAverage();
        System.out.printf("prefill %d, %d appends per arm, load %.1f -> %.1f%n", prefill, appends, loadBefore,
                loadAfter);
        String[] names = {"old (tail re-read)", "new (head kept)"};
        for (int a = 0; a < 2; a++) {
            System.out.printf("%-20s wall median %.3f ms p95 %.3f ms | thread CPU median %.3f ms p95 %.3f ms%n",
                    names[a], pct(wall[a], 50), pct(wall[a], 95), pct(used[a], 50), pct(used[a], 95));
        }
        System.out.println("intact: old " + old.verify().intact() + ", new " + kept.verify().intact());
    }

    private static double pct(long[] ns, int p) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, s.length * p / 100)] / 1e6;
    }
}
