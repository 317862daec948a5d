package io.aasm.backend.landlockseccomp.internal.kernel;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings;
import io.aasm.backend.landlockseccomp.internal.runtime.Housekeeping;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.PreparedLaunch;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Benchmark, not a test: what cgroups made ahead and removals after the status take off a launch's own thread.
 * Two backends in one JVM, `inline` (groups made in prepare, removed before await returns) and `ahead` (4 spares per
 * hierarchy, removals on the janitor thread), alternating launch by launch with the benchmark policy's cgroup
 * limits (memory, pids, the teardown group), generated files and canaries. Per arm: the wall and the calling
 * thread's CPU of prepare(), of spawn() (up to the program's start; the generated files' removal came right after)
 * and of await() (the exit read and the teardown; /bin/true is done by then or nearly),
 * and the janitor thread's CPU per launch. Run it with the resident kernel's JIT (-XX:TieredStopAtLevel=1).
 * Usage: HousekeepingBench [n [warm-up]]
 */
public final class HousekeepingBench {
    private HousekeepingBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        LandlockSeccompSettings s = LandlockSeccompSettings.defaults().withProbeCacheDir(Harness.cacheDir());
        LandlockSeccompBackend[] arms = {new LandlockSeccompBackend(s, false, Housekeeping.inline()),
            new LandlockSeccompBackend(s, false, new Housekeeping(4, true))};
        String[] names = {"inline", "ahead"};
        Path scratch = Files.createTempDirectory("aasm-hk-bench");
        List<ControlRequirement> reqs = new ArrayList<>(List.of(Harness.read(), Harness.write(scratch.toString()),
                Harness.req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()),
                Harness.req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("PATH"))),
                Harness.req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(512)),
                Harness.req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.of(2L << 30), OptionalLong.empty(),
                        OptionalLong.empty(), OptionalLong.of(1024), OptionalLong.empty(), OptionalLong.of(512)))));
        ExecutionSpec spec = new ExecutionSpec("/bin/true", List.of(), "/", IdentityRef.anonymous(), reqs,
                Map.of("PATH", "/usr/bin:/bin"), CredentialPosture.none(), new Stdio.Inherit());
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[][][] m = new long[2][6][n]; // arm, {prepare, spawn, await} x {wall, thread CPU}, run
        int warm = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        String load0 = Files.readString(Path.of("/proc/loadavg")).strip();
        long janitor0 = 0;
        for (int i = 0; i < n + warm; i++) {
            if (i == warm) {
                janitor0 = janitorCpu(mx);
            }
            for (int a = (i % 2); a < (i % 2) + 2; a++) { // the arms' order alternates
                int arm = a % 2;
                var plan = Harness.plan(arms[arm], spec);
                long w0 = System.nanoTime();
                long c0 = mx.getCurrentThreadCpuTime();
                PreparedLaunch p = arms[arm].prepare(plan);
                long w1 = System.nanoTime();
                long c1 = mx.getCurrentThreadCpuTime();
                Execution e = p.spawn();
                long w2 = System.nanoTime();
                long c2 = mx.getCurrentThreadCpuTime();
                e.await();
                long w3 = System.nanoTime();
                long c3 = mx.getCurrentThreadCpuTime();
                if (i >= warm) {
                    long[] v = {w1 - w0, c1 - c0, w2 - w1, c2 - c1, w3 - w2, c3 - c2};
                    for (int k = 0; k < 6; k++) {
                        m[arm][k][i - warm] = v[k];
                    }
                }
            }
        }
        long janitor = janitorCpu(mx) - janitor0;
        String[] what = {"prepare wall", "prepare CPU", "spawn wall", "spawn CPU", "await wall", "await CPU"};
        System.out.printf("%d launches per arm after %d warm-up, alternating; load %s at the start, %s at the end%n",
                n, warm, load0, Files.readString(Path.of("/proc/loadavg")).strip());
        for (int k = 0; k < 6; k++) {
            long[] d = new long[n];
            for (int i = 0; i < n; i++) {
                d[i] = m[1][k][i] - m[0][k][i];
            }
            System.out.printf("%-13s median µs: inline %7.1f  ahead %7.1f   paired ahead-inline median %+7.1f "
                    + "(p25 %+7.1f, p75 %+7.1f); means %7.1f / %7.1f%n", what[k], median(m[0][k]) / 1e3,
                    median(m[1][k]) / 1e3, median(d) / 1e3, pct(d, 25) / 1e3, pct(d, 75) / 1e3,
                    Arrays.stream(m[0][k]).average().orElse(0) / 1e3, Arrays.stream(m[1][k]).average().orElse(0) / 1e3);
        }
        System.out.printf("janitor thread CPU per `ahead` launch: %.1f µs (mean)%n", janitor / 1e3 / n);
        for (LandlockSeccompBackend b : arms) {
            b.deactivate();
        }
        System.exit(0);
    }

    private static long janitorCpu(ThreadMXBean mx) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("aasm-native-janitor"))
                .mapToLong(t -> Math.max(0, mx.getThreadCpuTime(t.getId()))).sum();
    }

    private static double median(long[] v) {
        return pct(v, 50);
    }

    private static double pct(long[] v, int p) {
        long[] c = v.clone();
        Arrays.sort(c);
        return c[Math.min(c.length - 1, (int) Math.round(p / 100.0 * (c.length - 1)))];
    }
}
