package io.aasm.backend.container.internal;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Benchmark, not a test: what the init's canaries add to one container launch of /bin/true (prepare,
 * spawn, await) with the four canaried domains stated, paired against canaries off, interleaved in one run.
 * With {@code spawn-deny} processes are stated as none as well: the init then runs only for the canaries and
 * becomes the program by execve (without canaries there is no init at all).
 * Usage (DOCKER_HOST set): ContainerCanaryBench [n] [spawn-deny]
 */
public final class ContainerCanaryBench {
    private ContainerCanaryBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        Settings base = Settings.defaults().withProbeCacheDir(Harness.cacheDir());
        Harness on = new Harness(new ContainerBackend(base));
        Harness off = new Harness(new ContainerBackend(base.withCanaries(false)));
        List<ControlRequirement> reqs = new ArrayList<>(List.of(Harness.read(),
                Harness.req(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain()),
                Harness.req(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY, List.of("mkdir"))),
                Harness.req(CapabilityDomain.IPC, new Scope.WholeDomain())));
        boolean spawnDeny = args.length > 1 && args[1].equals("spawn-deny");
        if (spawnDeny) {
            reqs.add(Harness.req(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain()));
        }
        ExecutionSpec spec = new ExecutionSpec("/bin/true", List.of(), "/", io.aasm.ports.backend.IdentityRef.anonymous(),
                reqs, Map.of(), io.aasm.ports.backend.CredentialPosture.none(), new io.aasm.ports.backend.Stdio.Inherit());
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        for (int i = 0; i < 3; i++) {
            once(on, spec);
            once(off, spec);
        }
        long[] with = new long[n];
        long[] without = new long[n];
        long[] diff = new long[n];
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0) {
                with[i] = once(on, spec);
                without[i] = once(off, spec);
            } else {
                without[i] = once(off, spec);
                with[i] = once(on, spec);
            }
            diff[i] = with[i] - without[i];
        }
        String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();
        System.out.printf("n=%d pairs%s; load before [%s] after [%s]%n", n, spawnDeny ? ", processes none" : "",
                loadBefore, loadAfter);
        System.out.printf("canaries on : median %.1f ms, p90 %.1f ms%n", ms(with, 50), ms(with, 90));
        System.out.printf("canaries off: median %.1f ms, p90 %.1f ms%n", ms(without, 50), ms(without, 90));
        System.out.printf("paired difference (on - off): median %+.1f ms, p25 %+.1f ms, p75 %+.1f ms%n",
                ms(diff, 50), ms(diff, 25), ms(diff, 75));
        on.backend.deactivate();
        off.backend.deactivate();
        System.exit(0);
    }

    private static long once(Harness h, ExecutionSpec spec) throws Exception {
        long t0 = System.nanoTime();
        ExitDisposition d = h.run(spec);
        long t = System.nanoTime() - t0;
        if (!(d instanceof ExitDisposition.Exited x) || x.code() != 0) {
            throw new IllegalStateException("launch failed: " + d);
        }
        return t;
    }

    private static double ms(long[] values, int percentile) {
        long[] s = values.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, s.length * percentile / 100)] / 1e6;
    }
}
