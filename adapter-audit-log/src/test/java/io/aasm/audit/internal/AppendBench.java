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
 * the arms take turns inside one loop, so load hits both alike. Prints the median and p95 of wall time and of
 * the appending thread's CPU time per append (user and system: {@code fdatasync} is system time), the mean
 * of its user time (the Java work), and the load average before and after.
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
        JsonlAuditLog[] logs = {
            new JsonlAuditLog(Files.createDirectories(root.resolve("old")), HeadCache.OFF),
            new JsonlAuditLog(Files.createDirectories(root.resolve("head")), HeadCache.CHECKED)};
        for (int i = 0; i < prefill; i++) {
            for (JsonlAuditLog log : logs) {
                log.append(Reports.launch(i % 256));
            }
        }
        double loadBefore = os.getSystemLoadAverage();
        int arms = logs.length;
        long[][] wall = new long[arms][appends];
        long[][] used = new long[arms][appends];
        long[][] user = new long[arms][appends];
        for (int i = 0; i < appends; i++) {
            for (int arm = 0; arm < arms; arm++) {
                int a = (arm + i) % arms; // rotate which arm goes first
                JsonlAuditLog log = logs[a];
                long c0 = cpu.getCurrentThreadCpuTime();
                long u0 = cpu.getCurrentThreadUserTime();
                long t0 = System.nanoTime();
                log.append(Reports.launch(i % 256));
                wall[a][i] = System.nanoTime() - t0;
                used[a][i] = cpu.getCurrentThreadCpuTime() - c0;
                user[a][i] = cpu.getCurrentThreadUserTime() - u0;
            }
        }
        double loadAfter = os.getSystemLoadAverage();
        System.out.printf("prefill %d, %d appends per arm, load %.1f -> %.1f%n", prefill, appends, loadBefore,
                loadAfter);
        String[] names = {"old (tail re-read)", "head kept"};
        for (int a = 0; a < arms; a++) {
            System.out.printf("%-20s wall median %.3f p95 %.3f | thread CPU median %.3f p95 %.3f mean %.3f"
                    + " | user mean %.3f (ms)%n", names[a], pct(wall[a], 50), pct(wall[a], 95), pct(used[a], 50),
                    pct(used[a], 95), mean(used[a]), mean(user[a]));
        }
        for (int a = 0; a < arms; a++) {
            System.out.println(names[a] + " intact: " + logs[a].verify().intact());
        }
    }

    /** User time is counted in scheduler ticks, so only its mean over many appends says anything. */
    private static double mean(long[] ns) {
        return Arrays.stream(ns).average().orElse(0) / 1e6;
    }

    private static double pct(long[] ns, int p) {
        long[] s = ns.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, s.length * p / 100)] / 1e6;
    }
}
