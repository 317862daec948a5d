package io.aasm.backend.vm.internal;

import io.aasm.backend.vm.internal.guest.CanaryPlan;
import io.aasm.backend.vm.internal.lower.VmLaunch;
import io.aasm.ports.backend.Execution;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.evidence.EvidenceKind;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Not a test (surefire skips *Bench): what the guest canaries cost per launch, paired in one run. Per round, in
 * alternating order: (1) the agent's own measure of its attempts (canary_us, CLOCK_MONOTONIC in the guest,
 * which under TCG advances in 4 ms steps: compare means over many rounds) with
 * the four older kinds only vs all eight; (2) the host's wall time of the same all-eight launch with canaries on
 * vs off (off: the launch claims none of the canaried domains as installed, so no R_CANARY is sent; the plan is
 * otherwise identical). Prints medians and the load average. Run:
 * {@code mvn -o -pl adapter-macos-vhost test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.aasm.backend.vm.internal.CanaryCostBench -Dexec.args="20 tcg"}.
 */
public final class CanaryCostBench {
    private static final Pattern US = Pattern.compile("canaries took ([0-9]+) µs");

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        // second argument: the accelerator (tcg as the tests, or kvm where /dev/kvm boots a guest)
        QemuVmBackend b = args.length > 1 ? new QemuVmBackend(Guests.settings(args[1])) : Guests.backend();
        Path dir = Files.createTempDirectory("vm-canary-bench");
        ExecutionSpec old = spec(dir, false);
        ExecutionSpec all = spec(dir, true);
        List<Long> usOld = new ArrayList<>(), usAll = new ArrayList<>(), wallDiff = new ArrayList<>();
        System.out.println("load before: " + Files.readString(Path.of("/proc/loadavg")).trim());
        for (int i = 0; i < n; i++) {
            boolean allFirst = i % 2 == 0;
            for (int k = 0; k < 2; k++) {
                boolean useAll = (k == 0) == allFirst;
                (useAll ? usAll : usOld).add(guestMicros(b, useAll ? all : old));
            }
            long on = 0, off = 0;
            for (int k = 0; k < 2; k++) {
                boolean canaries = (k == 0) == allFirst;
                long t0 = System.nanoTime();
                b.runLowered(all, canaries ? l -> l : CanaryCostBench::noCanaries);
                long t = System.nanoTime() - t0;
                if (canaries) {
                    on = t;
                } else {
                    off = t;
                }
            }
            wallDiff.add((on - off) / 1000);
            System.out.println("round " + i + ": guest old " + usOld.get(i) + " µs, all " + usAll.get(i)
                    + " µs; host wall on-off " + (on - off) / 1000 + " µs");
        }
        List<Long> newKinds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            newKinds.add(usAll.get(i) - usOld.get(i));
        }
        // The guest's clock under TCG ticks in coarse steps (4 ms here): the mean of many paired samples resolves
        // below a step, the median of quantized samples does not.
        System.out.println("guest µs mean (median): older four " + mean(usOld) + " (" + median(usOld) + "), all eight "
                + mean(usAll) + " (" + median(usAll) + "), the four new paired " + mean(newKinds) + " ("
                + median(newKinds) + "); host wall on-off median " + median(wallDiff) + " µs (p25 " + pct(wallDiff, 25)
                + ", p75 " + pct(wallDiff, 75) + ", mean " + mean(wallDiff) + ")");
        System.out.println("load after: " + Files.readString(Path.of("/proc/loadavg")).trim());
        System.exit(0);
    }

    private static long guestMicros(QemuVmBackend b, ExecutionSpec spec) throws Exception {
        Execution e = Spawned.spawn(b, spec);
        e.await();
        for (var r : e.evidence().records()) {
            Matcher m = US.matcher(r.detail());
            if (r.kind() == EvidenceKind.DECISION && m.find()) {
                return Long.parseLong(m.group(1));
            }
        }
        throw new IllegalStateException("no canary cost in " + e.evidence());
    }

    /** The same launch claiming none of the canaried domains as installed: GuestCanaries asks for none. */
    private static VmLaunch noCanaries(VmLaunch l) {
        Map<CapabilityDomain, List<String>> installed = new EnumMap<>(CapabilityDomain.class);
        l.installed().forEach((d, s) -> {
            if (!CanaryPlan.SUPPORTED.contains(d)) {
                installed.put(d, s);
            }
        });
        return new VmLaunch(l.plan(), l.slots(), l.wallClockSeconds(), installed, l.proxyPort(), l.canaryTargets());
    }

    private static ExecutionSpec spec(Path dir, boolean newKinds) {
        List<ControlRequirement> reqs = new ArrayList<>(List.of(Guests.read(), Guests.write(dir.toString()),
                ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS, new Scope.Egress(List.of())),
                ControlRequirement.strict(CapabilityDomain.PROCESS_CREATION, new Scope.WholeDomain())));
        if (newKinds) {
            reqs.add(ControlRequirement.strict(CapabilityDomain.SYSCALL, new Scope.Syscalls(SyscallMode.DENY,
                    List.of("mkdir"))));
            reqs.add(ControlRequirement.strict(CapabilityDomain.NAME_RESOLUTION, new Scope.PinnedHosts(new TreeMap<>(
                    Map.of("pinned.example", "192.0.2.7")))));
            reqs.add(ControlRequirement.strict(CapabilityDomain.CREDENTIAL, new Scope.Delegated(List.of())));
            reqs.add(ControlRequirement.strict(CapabilityDomain.RESOURCE, new Scope.Limits(OptionalLong.empty(),
                    OptionalLong.empty(), OptionalLong.empty(), OptionalLong.of(64), OptionalLong.empty(),
                    OptionalLong.empty())));
        }
        return new ExecutionSpec("/bin/true", List.of(), dir.toString(), io.aasm.ports.backend.IdentityRef.anonymous(),
                reqs, Map.of(), io.aasm.ports.backend.CredentialPosture.none(),
                new io.aasm.ports.backend.Stdio.Inherit());
    }

    private static long mean(List<Long> v) {
        return Math.round(v.stream().mapToLong(Long::longValue).average().orElse(0));
    }

    private static long median(List<Long> v) {
        return pct(v, 50);
    }

    private static long pct(List<Long> v, int p) {
        List<Long> s = new ArrayList<>(v);
        s.sort(null);
        return s.get(Math.min(s.size() - 1, s.size() * p / 100));
    }
}
