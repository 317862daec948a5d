package io.aasm.backend.vm.internal;

import io.aasm.backend.vm.internal.qemu.QemuMachine;
import io.aasm.ports.backend.CredentialPosture;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.trace.LaunchStages;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Not a test (surefire skips *Bench): the restore path, paired. N rounds, each one {@code /bin/true} launch
 * restoring the earlier way ({@code -Daasm.vm.restoreDeferred=true}: a monitor command per round trip, status
 * polled, {@code cont}), one the default way (two commands in one write, then the RESUME event), and one
 * unconfined {@code /bin/true}, the order of the two VM arms
 * alternating per round. With {@code -Daasm.stages.file=FILE} every VM launch is traced stage by stage
 * (LaunchStages) and the medians per stage and arm are printed. Performance is judged by the benchmark harness,
 * never here. Run: {@code java -cp <test classpath> -Daasm.stages.file=/tmp/s.jsonl ...LaunchTimingBench 10}.
 */
public final class LaunchTimingBench {
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        QemuVmBackend b = new QemuVmBackend(Guests.settings("tcg"));
        Path dir = Files.createTempDirectory("vm-bench");
        ExecutionSpec spec = new ExecutionSpec("/bin/true", List.of(), dir.toString(), IdentityRef.anonymous(),
                List.of(Guests.read(), Guests.write(dir.toString())), Map.of(), CredentialPosture.none(),
                new Stdio.Inherit());
        System.out.println("template: " + launch(b, spec, "template", false) + " ms (made now unless it existed)");
        Map<String, List<Double>> wall = new LinkedHashMap<>();
        Map<String, Map<String, List<Double>>> stages = new LinkedHashMap<>();
        double loadMin = Double.MAX_VALUE, loadMax = 0;
        for (int i = 0; i < n; i++) {
            String[] order = i % 2 == 0 ? new String[] {"deferred", "pipelined"} : new String[] {"pipelined",
                    "deferred"};
            for (String arm : order) {
                long ms = launch(b, spec, arm, arm.equals("deferred"));
                wall.computeIfAbsent(arm, k -> new ArrayList<>()).add((double) ms);
            }
            long t0 = System.nanoTime(); // the baseline in the same round: /bin/true unconfined
            new ProcessBuilder("/bin/true").start().waitFor();
            wall.computeIfAbsent("unconfined", k -> new ArrayList<>()).add((System.nanoTime() - t0) / 1e6);
            double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            loadMin = Math.min(loadMin, load);
            loadMax = Math.max(loadMax, load);
            System.out.printf("round %d: deferred %.0f ms, pipelined %.0f ms, load %.2f%n", i,
                    wall.get("deferred").get(i), wall.get("pipelined").get(i), load);
        }
        if (LaunchStages.enabled()) {
            for (String line : Files.readAllLines(Path.of(System.getProperty(LaunchStages.PROPERTY)))) {
                String arm = line.contains("\"arm_deferred\"") ? "deferred" : line.contains("\"arm_pipelined\"")
                        ? "pipelined" : null;
                if (arm != null) {
                    durations(line).forEach((s, ms) -> stages.computeIfAbsent(s, k -> new LinkedHashMap<>())
                            .computeIfAbsent(arm, k -> new ArrayList<>()).add(ms));
                }
            }
        }
        System.out.printf("%n%d rounds, load average %.2f-%.2f; medians in ms%n", n, loadMin, loadMax);
        wall.forEach((arm, v) -> System.out.printf("wall %-14s %8.1f%n", arm, median(v)));
        stages.forEach((s, by) -> System.out.printf("stage %-14s deferred %7.1f  pipelined %7.1f%n", s,
                median(by.getOrDefault("deferred", List.of())), median(by.getOrDefault("pipelined", List.of()))));
        System.exit(0);
    }

    private static long launch(QemuVmBackend b, ExecutionSpec spec, String arm, boolean deferred) throws Exception {
        System.setProperty(QemuMachine.DEFERRED, Boolean.toString(deferred));
        long t0 = System.nanoTime();
        LaunchStages.begin("arm_" + arm, t0);
        ExitDisposition d = b.runDirect(spec);
        LaunchStages.mark("done");
        LaunchStages.finish();
        if (!(d instanceof ExitDisposition.Exited e) || e.code() != 0) {
            throw new IllegalStateException(arm + ": /bin/true ended " + d);
        }
        return (System.nanoTime() - t0) / 1_000_000L;
    }

    /** Each mark's time minus the previous one's, in ms (a trace line is {"stage":microseconds,...}). */
    private static Map<String, Double> durations(String line) {
        Map<Long, String> byTime = new TreeMap<>();
        for (String kv : line.replaceAll("[{}\"]", "").split(",")) {
            String[] p = kv.split(":");
            byTime.put(Long.parseLong(p[1].trim()), p[0]);
        }
        Map<String, Double> out = new LinkedHashMap<>();
        long prev = 0;
        for (Map.Entry<Long, String> e : byTime.entrySet()) {
            if (!e.getValue().startsWith("arm_")) {
                out.put(e.getValue(), (e.getKey() - prev) / 1000.0);
            }
            prev = e.getKey();
        }
        return out;
    }

    private static double median(List<Double> v) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        int m = s.size() / 2;
        return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
    }
}
