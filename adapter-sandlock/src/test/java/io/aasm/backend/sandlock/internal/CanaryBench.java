package io.aasm.backend.sandlock.internal;

import io.aasm.ports.backend.EnforcementPlan;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Benchmark, not a test: what the canaries add to one sandlock launch of /bin/true (prepare, spawn,
 * await) with every canaried domain stated, paired against the same launch with canaries off, the two
 * interleaved in one run. Usage (AA_SANDLOCK_BIN set): CanaryBench [n]
 */
public final class CanaryBench {
    private CanaryBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        Path dir = Files.createTempDirectory("aasm-canary-bench");
        Path w = Files.createDirectories(dir.resolve("w"));
        List<ControlRequirement> reqs = List.of(Fixtures.reads(),
                Fixtures.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(w.toString()))),
                Fixtures.req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()),
                Fixtures.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir"))),
                Fixtures.req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain()),
                Fixtures.req(CapabilityDomain.IPC, new Scope.WholeDomain()),
                Fixtures.req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())),
                Fixtures.req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(),
                        OptionalLong.empty(), OptionalLong.of(256), OptionalLong.empty(), OptionalLong.empty())));
        ExecutionSpec spec = Fixtures.spec("/bin/true", List.of(), reqs, Map.of());
        EnforcementPlan plan = Fixtures.plan(spec);
        SandlockBackend on = Fixtures.realOrCannotHost(dir, Path.of("/sys"), true);
        SandlockBackend off = Fixtures.realOrCannotHost(dir, Path.of("/sys"), false);
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        for (int i = 0; i < 5; i++) {
            once(on, plan);
            once(off, plan);
        }
        long[] with = new long[n];
        long[] without = new long[n];
        long[] diff = new long[n];
        for (int i = 0; i < n; i++) {
            // alternate which arm goes first, so drift in load falls on both
            if (i % 2 == 0) {
                with[i] = once(on, plan);
                without[i] = once(off, plan);
            } else {
                without[i] = once(off, plan);
                with[i] = once(on, plan);
            }
            diff[i] = with[i] - without[i];
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();
        System.out.printf("n=%d pairs; load before [%s] after [%s]%n", n, loadBefore, loadAfter);
        System.out.printf("canaries on : median %.2f ms, p90 %.2f ms%n", ms(with, 50), ms(with, 90));
        System.out.printf("canaries off: median %.2f ms, p90 %.2f ms%n", ms(without, 50), ms(without, 90));
        System.out.printf("paired difference (on - off): median %+.2f ms, p25 %+.2f ms, p75 %+.2f ms%n",
                ms(diff, 50), ms(diff, 25), ms(diff, 75));
        on.deactivate();
        off.deactivate();
        System.exit(0);
    }

    private static long once(SandlockBackend b, EnforcementPlan plan) throws Exception {
        long t0 = System.nanoTime();
        Execution h = b.prepare(plan).spawn();
        int status = h.await().shellStatus();
        long t = System.nanoTime() - t0;
        if (status != 0) {
            throw new IllegalStateException("launch failed: " + status + " " + h.evidence());
        }
        return t;
    }

    private static double ms(long[] values, int percentile) {
        long[] s = values.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, s.length * percentile / 100)] / 1e6;
    }
}
