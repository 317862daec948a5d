package io.aasm.bench;

import io.aasm.backend.container.internal.ContainerBackend;
import io.aasm.backend.container.internal.Settings;
import io.aasm.backend.nativ.internal.NativeBackend;
import io.aasm.backend.nativ.internal.NativeSettings;
import io.aasm.backend.sandlock.internal.SandlockBackend;
import io.aasm.backend.sandlock.internal.SandlockConfig;
import io.aasm.kernel.internal.service.KernelComponent;
import io.aasm.kernel.internal.service.KernelConfig;
import io.aasm.policy.yaml.internal.YamlPolicySource;
import io.aasm.ports.backend.ExitDisposition;
import io.aasm.ports.backend.IdentityRef;
import io.aasm.ports.backend.Stdio;
import io.aasm.ports.kernel.LaunchDecision;
import io.aasm.ports.kernel.LaunchRequest;
import io.aasm.ports.policy.IsolationClass;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.annotation.Annotation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The warm in-JVM arms of the benchmark harness. One JVM builds the kernel, the YAML policy source
 * and the aasm-native, sandlock and aasm-container backends by their constructors (as DS would) and then
 * serves timing requests. The container backend finds its engine through DOCKER_HOST and runs under its own
 * policy (the bench policy with no egress, METHODOLOGY.md amendment 3), the second argument. The sandlock backend finds its executable through AA_SANDLOCK_BIN, as in a user's JVM.
 * The protocol runs on fds 3 (requests) and 4 (answers), because stdout/stderr are inherited by the
 * launched programs and must not carry protocol bytes.
 *
 * Request: {@code run<TAB>mode<TAB>count<TAB>cwd<TAB>argv0<TAB>argv1...} with mode {@code kernel}
 * (decide + launch + await on aasm-native, confined by --policy), {@code sandlock} (the same, pinned to the
 * sandlock backend), {@code container} (pinned to aasm-container, with the container policy) or {@code pb}
 * (plain ProcessBuilder, the T1 baseline).
 * Answer: {@code ok<TAB>worst-exit<TAB>ms,ms,...} (one wall time per launch) or {@code err<TAB>text}.
 */
public final class BenchDriver {
    private final KernelComponent kernel;
    private final String policy;
    private final String containerPolicy;

    private BenchDriver(String policy, String containerPolicy) {
        KernelConfig config = new KernelConfig() {
            @Override
            public String[] auto_walk() {
                return new String[] {NativeBackend.ID, "sandlock"};
            }

            @Override
            public String[] protected_paths() {
                return new String[0]; // the harness's own files are not the subject of these measurements
            }

            @Override
            public Class<? extends Annotation> annotationType() {
                return KernelConfig.class;
            }
        };
        this.kernel = new KernelComponent(config, k -> null);
        this.kernel.addPolicySource(new YamlPolicySource());
        Map<String, Object> props = new HashMap<>();
        props.put("aasm.backend.id", NativeBackend.ID);
        props.put("aasm.backend.ranking", 0);
        this.kernel.addBackend(new NativeBackend(NativeSettings.defaults()), props);
        this.kernel.addBackend(new SandlockBackend(defaults(SandlockConfig.class)), Map.of("aasm.backend.id",
                "sandlock", "aasm.backend.ranking", 0));
        this.kernel.addBackend(new ContainerBackend(Settings.defaults()), Map.of("aasm.backend.id", "aasm-container",
                "aasm.backend.ranking", 0));
        this.policy = policy;
        this.containerPolicy = containerPolicy;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: BenchDriver <policy.yaml> [<container-policy.yaml>]");
            System.exit(2);
        }
        BenchDriver d = new BenchDriver(args[0], args.length > 1 ? args[1] : args[0]);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new FileInputStream("/proc/self/fd/3"), StandardCharsets.UTF_8));
             PrintStream out = new PrintStream(new FileOutputStream("/proc/self/fd/4"), true, StandardCharsets.UTF_8)) {
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
                            default -> NativeBackend.ID;
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

    /** A configuration annotation answering every element with its default, as DS would without config. */
    @SuppressWarnings("unchecked")
    private static <A> A defaults(Class<A> type) {
        return (A) java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (proxy, m, args) -> switch (m.getName()) {
                    case "annotationType" -> type;
                    case "toString" -> type.getSimpleName() + "(defaults)";
                    case "hashCode" -> 0;
                    case "equals" -> proxy == args[0];
                    default -> m.getDefaultValue();
                });
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
