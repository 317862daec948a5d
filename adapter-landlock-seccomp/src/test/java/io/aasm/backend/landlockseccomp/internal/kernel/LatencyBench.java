package io.aasm.backend.landlockseccomp.internal.kernel;

import io.aasm.backend.landlockseccomp.internal.LandlockSeccompBackend;
import io.aasm.backend.landlockseccomp.internal.LandlockSeccompSettings;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import io.aasm.ports.evidence.EvidenceKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Benchmark, not a test: warm launch latency of /bin/true confined through the Java API versus an
 * unconfined ProcessBuilder launch, interleaved in the same run. Usage: LatencyBench [n]
 */
public final class LatencyBench {
    private LatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        LandlockSeccompBackend b = new LandlockSeccompBackend(LandlockSeccompSettings.defaults().withProbeCacheDir(Harness.cacheDir()));
        Harness h = new Harness(b);
        List<ControlRequirement> fsAndSyscall = List.of(Harness.read(), Harness.write("/tmp"),
                Harness.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("ptrace"))));
        List<ControlRequirement> all = new ArrayList<>(fsAndSyscall);
        all.add(Harness.req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()));
        all.add(Harness.req(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())));
        all.add(Harness.req(CapabilityDomain.IPC, new Scope.WholeDomain()));
        all.add(Harness.req(CapabilityDomain.PROCESS_CREATION, new Scope.ProcessCeiling(64)));
        if (!Boolean.getBoolean("canaries.only")) {
            run(h, "fs+syscall", fsAndSyscall, n);
            run(h, "fs+syscall+net ns+pid/mount ns+ipc+pids cgroup", all, n);
        }
        // every kind the launcher has: name resolution (a DNS datagram), credential (the keyring, a second
        // child) and resource (an rlimit raise) on top of the six of the launch above
        List<ControlRequirement> canaried = new ArrayList<>(all);
        canaried.add(Harness.req(CapabilityDomain.NAME_RESOLUTION, new Scope.WholeDomain()));
        canaried.add(Harness.req(CapabilityDomain.RESOURCE, new Scope.Limits(java.util.OptionalLong.empty(),
                java.util.OptionalLong.empty(), java.util.OptionalLong.empty(), java.util.OptionalLong.of(256),
                java.util.OptionalLong.empty(), java.util.OptionalLong.empty())));
        // the kinds this launch had before name resolution, credential and resource had canaries
        List<ControlRequirement> six = all.stream().filter(r -> r.domain() != CapabilityDomain.CREDENTIAL).toList();
        canaryCost(b, six, n, "fs read+write, egress, syscall, ipc");
        canaryCost(b, canaried, n, "the same plus name resolution, credential, resource");
        System.exit(0);
    }

    private static void run(Harness h, String label, List<ControlRequirement> reqs, int n) throws Exception {
        ExecutionSpec spec = new ExecutionSpec("/bin/true", List.of(), "/", IdentityRef.anonymous(), reqs, Map.of(),
                CredentialPosture.none(), new Stdio.Inherit());
        for (int i = 0; i < 10; i++) {
            h.run(spec);
            new ProcessBuilder("/bin/true").start().waitFor();
        }
        long[] confined = new long[n];
        long[] plain = new long[n];
        long[] setup = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            Execution handle = h.start(spec);
            handle.await();
            confined[i] = System.nanoTime() - t0;
            setup[i] = handle.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.INSTALLED)
                    .map(r -> r.detail().replaceAll(".*setup (\\d+) us.*", "$1")).filter(s -> s.matches("\\d+"))
                    .mapToLong(Long::parseLong).findFirst().orElse(-1);
            long t1 = System.nanoTime();
            new ProcessBuilder("/bin/true").start().waitFor();
            plain[i] = System.nanoTime() - t1;
        }
        double mc = median(confined) / 1e6;
        double mp = median(plain) / 1e6;
        System.out.printf("%s: confined median %.2f ms, unconfined ProcessBuilder median %.2f ms, ratio %.1fx, "
                + "launcher setup (start to execve) median %.2f ms, n=%d%n", label, mc, mp, mc / mp, median(setup) / 1e3, n);
    }

    /**
     * What the canaries add: the same launch on a backend with canaries and on one without, interleaved, the
     * whole launch and the launcher's own start-to-execve time (which holds the canary child).
     */
    private static void canaryCost(LandlockSeccompBackend withCanaries, List<ControlRequirement> reqs, int n, String label)
            throws Exception {
        Harness on = new Harness(withCanaries);
        Harness off = new Harness(new LandlockSeccompBackend(LandlockSeccompSettings.defaults().withProbeCacheDir(Harness.cacheDir())
                .withoutCanaries()));
        ExecutionSpec spec = new ExecutionSpec("/bin/true", List.of(), "/", IdentityRef.anonymous(), reqs, Map.of(),
                CredentialPosture.none(), new Stdio.Inherit());
        long[][] total = new long[2][n];
        long[][] setup = new long[2][n];
        for (int i = 0; i < n + 10; i++) {
            for (int arm = 0; arm < 2; arm++) {
                long t0 = System.nanoTime();
                Execution e = (arm == 0 ? on : off).start(spec);
                e.await();
                if (i >= 10) {
                    total[arm][i - 10] = System.nanoTime() - t0;
                    setup[arm][i - 10] = e.evidence().records().stream().filter(r -> r.kind() == EvidenceKind.INSTALLED)
                            .map(r -> r.detail().replaceAll(".*setup (\\d+) us.*", "$1")).filter(s -> s.matches("\\d+"))
                            .mapToLong(Long::parseLong).findFirst().orElse(-1);
                }
            }
        }
        System.out.printf("canaries: launch median %.2f ms with, %.2f ms without (+%.2f ms); launcher start to execve "
                + "median %.2f ms with, %.2f ms without (+%.2f ms), n=%d%n", median(total[0]) / 1e6,
                median(total[1]) / 1e6, (median(total[0]) - median(total[1])) / 1e6, median(setup[0]) / 1e3,
                median(setup[1]) / 1e3, (median(setup[0]) - median(setup[1])) / 1e3, n);
        long[] paired = new long[n];
        for (int i = 0; i < n; i++) {
            paired[i] = setup[0][i] - setup[1][i];
        }
        long[] sorted = paired.clone();
        Arrays.sort(sorted);
        System.out.printf("  %s: start to execve, paired difference median %+.2f ms (p25 %+.2f, p75 %+.2f); "
                + "load %s%n", label, median(paired) / 1e3, sorted[n / 4] / 1e3, sorted[n * 3 / 4] / 1e3,
                java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).strip());
    }

    private static double median(long[] v) {
        long[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2.0;
    }

}
