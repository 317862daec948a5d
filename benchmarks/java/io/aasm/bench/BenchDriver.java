package io.aasm.bench;

import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.kernel.IsolationKernel;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.policy.IsolationClass;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The warm in-JVM arms of the benchmark harness. One JVM embeds the distribution ({@link EmbeddedKernel}:
 * Felix with the distribution's bundle set and conf/, the kernel service through the exported ports API),
 * then serves timing requests. The sandlock backend finds its executable through AA_SANDLOCK_BIN, as in a
 * user's JVM; the container backend finds its engine through DOCKER_HOST and runs under its own policy (the
 * bench policy with no egress), the optional fourth argument. The protocol runs on fds 3 (requests) and 4 (answers), because stdout/stderr are inherited
 * by the launched programs and must not carry protocol bytes.
 *
 * Request: {@code run<TAB>mode<TAB>count<TAB>cwd<TAB>argv0<TAB>argv1...} with mode {@code kernel}
 * (decide + launch + await on aasm-native, confined by --policy), {@code sandlock} (the same, pinned to the
 * sandlock backend), {@code container} (pinned to aasm-container, with the container policy) or {@code pb}
 * (plain ProcessBuilder, the T1 baseline).
 * Answer: {@code ok<TAB>worst-exit<TAB>ms,ms,...} (one wall time per launch) or {@code err<TAB>text}.
 */
public final class BenchDriver {
    private static final String NATIVE = "aasm-native";
    private final IsolationKernel kernel;
    private final String policy;
    private final String containerPolicy;

    private BenchDriver(IsolationKernel kernel, String policy, String containerPolicy) {
        this.kernel = kernel;
        this.policy = policy;
        this.containerPolicy = containerPolicy;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: BenchDriver <aasm home> <policy.yaml> <work dir> [<container-policy.yaml>]");
            System.exit(2);
        }
        try (EmbeddedKernel embedded = new EmbeddedKernel(Path.of(args[0]), Path.of(args[2]), System.err);
             BufferedReader in = new BufferedReader(new InputStreamReader(
                     new FileInputStream("/proc/self/fd/3"), StandardCharsets.UTF_8));
             PrintStream out = new PrintStream(new FileOutputStream("/proc/self/fd/4"), true, StandardCharsets.UTF_8)) {
            BenchDriver d = new BenchDriver(embedded.kernel, args[1], args.length > 3 ? args[3] : args[1]);
            out.println("ready");
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("quit")) {
                    break;
                }
                out.println(d.serve(line));
            }
        }
    }

    private String serve(String line) {
        String[] f = line.split("\t", -1);
        if (f.length < 5 || !f[0].equals("run")) {
            return "err\tmalformed request";
        }
        try {
            int count = Integer.parseInt(f[2]);
            List<String> argv = Arrays.asList(f).subList(4, f.length);
            long[] times = new long[count];
            int worst = 0;
            for (int i = 0; i < count; i++) {
                long t0 = System.nanoTime();
                int rc = f[1].equals("pb") ? direct(f[3], argv)
                        : confined(f[3], argv, switch (f[1]) {
                            case "sandlock" -> "sandlock";
                            case "container" -> "aasm-container";
                            default -> NATIVE;
                        });
                times[i] = System.nanoTime() - t0;
                worst = Math.max(worst, rc);
            }
            StringBuilder sb = new StringBuilder("ok\t").append(worst).append('\t');
            for (int i = 0; i < count; i++) {
                sb.append(i == 0 ? "" : ",").append(String.format(java.util.Locale.ROOT, "%.3f", times[i] / 1e6));
            }
            return sb.toString();
        } catch (Exception e) {
            return "err\t" + e.toString().replace('\t', ' ').replace('\n', ' ');
        }
    }

    private static int direct(String cwd, List<String> argv) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(argv).directory(new java.io.File(cwd)).inheritIO();
        return pb.start().waitFor();
    }

    private int confined(String cwd, List<String> argv, String backend) throws Exception {
        boolean container = backend.equals("aasm-container");
        LaunchRequest req = new LaunchRequest(Optional.of(container ? IsolationClass.CONTAINER : IsolationClass.PROCESS),
                Optional.of(backend), Optional.of(container ? containerPolicy : policy), argv.get(0),
                new ArrayList<>(argv.subList(1, argv.size())), cwd,
                IdentityRef.anonymous(), System.getenv(), new Stdio.Inherit());
        LaunchDecision decision = kernel.decide(req);
        if (!(decision instanceof LaunchDecision.Confined)) {
            throw new IllegalStateException("not confined: " + describe(decision));
        }
        ExitDisposition exit = kernel.launch(decision).await();
        return exit.shellStatus();
    }

    private static String describe(LaunchDecision d) {
        if (d instanceof LaunchDecision.Refused r) {
            return "refused: " + r.message();
        }
        if (d instanceof LaunchDecision.PolicyRejected p) {
            return "policy rejected: " + p.problems();
        }
        return d.getClass().getSimpleName();
    }
}
