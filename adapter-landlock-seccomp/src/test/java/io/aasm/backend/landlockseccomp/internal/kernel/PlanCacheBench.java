package io.aasm.backend.landlockseccomp.internal.kernel;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings;
import io.aasm.backend.landlockseccomp.internal.plan.PlanCache;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
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
 * The backend's {@code plan} with the plan cache on and off, paired in one JVM (calls alternate), thread CPU and
 * wall per call. The policy is the one of {@code distribution/bench/stages.py}; the protected paths are the JDK and
 * the folders given. A benchmark, not a test: run it with the test class path and {@code -XX:TieredStopAtLevel=1}
 * (the kernel's compiler mode), e.g. {@code PlanCacheBench 2000 500 /path/of/the/install /path/of/the/cache}.
 */
public final class PlanCacheBench {
    private PlanCacheBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int warmup = Integer.parseInt(args[1]);
        List<String> protectedPaths = new ArrayList<>(List.of(System.getProperty("java.home")));
        protectedPaths.addAll(Arrays.asList(args).subList(2, args.length));
        Path scratch = Files.createTempDirectory("plan-bench");
        LandlockSeccompBackend b = new LandlockSeccompBackend(LandlockSeccompSettings.defaults()
                .withProbeCacheDir(Harness.cacheDir()));
        List<String> system = List.of("/usr", "/etc", "/lib", "/lib64", "/bin", "/sbin").stream()
                .filter(p -> Files.exists(Path.of(p))).toList();
        List<ControlRequirement> reqs = List.of(
                Harness.req(CapabilityDomain.FILESYSTEM_READ, new Scope.Paths(system)),
                Harness.req(CapabilityDomain.FILESYSTEM_WRITE, new Scope.Paths(List.of(scratch.toString(), "/dev/null"))),
                Harness.req(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of(
                        new EgressGrant(Protocol.TCP, EgressGrant.LOOPBACK, 9, 9)))),
                Harness.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("ptrace", "mount",
                        "umount2", "kexec_load", "init_module", "bpf", "perf_event_open", "keyctl", "add_key",
                        "request_key", "swapon", "swapoff", "reboot"))),
                Harness.req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(512)),
                Harness.req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of("PATH", "HOME", "LANG"))),
                Harness.req(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.of(2L << 30), OptionalLong.empty(),
                        OptionalLong.empty(), OptionalLong.of(1024), OptionalLong.empty(), OptionalLong.of(512))));
        ExecutionSpec spec = new ExecutionSpec("/bin/true", List.of(), scratch.toString(), IdentityRef.anonymous(), reqs,
                Map.of("PATH", "/usr/bin:/bin", "HOME", "/root", "LANG", "C.UTF-8", "OTHER", "x"),
                CredentialPosture.none(), new Stdio.Inherit(), protectedPaths);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[][] cpu = new long[2][n];
        long[][] wall = new long[2][n];
        for (int i = -warmup; i < n; i++) {
            for (int arm = 0; arm < 2; arm++) {
                int which = (i & 1) == 0 ? arm : 1 - arm; // the order alternates
                System.setProperty(PlanCache.PROPERTY, which == 0 ? "false" : "true");
                long c0 = mx.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                b.plan(spec);
                long w1 = System.nanoTime();
                long c1 = mx.getCurrentThreadCpuTime();
                if (i >= 0) {
                    cpu[which][i] = c1 - c0;
                    wall[which][i] = w1 - w0;
                }
            }
        }
        System.out.printf("plan cache: %d hits, %d misses, %d stale, %d kept, %d filesystem questions to validate%n",
                b.plans().hits(), b.plans().misses(), b.plans().stale(), b.plans().size(), b.plans().questions());
        String[] names = {"off (fresh)", "on (cached)"};
        for (int arm = 0; arm < 2; arm++) {
            System.out.printf("%s: thread CPU median %.3f ms, mean %.3f ms, p95 %.3f ms; wall median %.3f ms, p95 %.3f ms"
                    + " (%d calls)%n", names[arm], ms(pct(cpu[arm], 50)), ms(mean(cpu[arm])), ms(pct(cpu[arm], 95)),
                    ms(pct(wall[arm], 50)), ms(pct(wall[arm], 95)), n);
        }
        System.exit(0);
    }

    private static double ms(double ns) {
        return ns / 1e6;
    }

    private static double mean(long[] v) {
        return Arrays.stream(v).average().orElse(Double.NaN);
    }

    private static double pct(long[] v, int p) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.round(p / 100.0 * (s.length - 1)))];
    }
}
