package io.aasm.backend.vm.internal.guest;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Everything the guest agent installs for one launch, decided on the host: the program, its environment
 * and identity, the shares it mounts and the view it builds from them, its ceilings, its Landlock rules and
 * seccomp programs. The entropy seed and the clock are added when the plan is sent ({@link PlanEncoder}).
 */
public record GuestPlan(String program, List<String> argv, Map<String, String> environment, String workingDirectory,
                        int uid, int gid, List<Share> shares, List<ViewOp> view, List<Rlimit> rlimits,
                        OptionalLong memoryMax, OptionalLong pidsMax, boolean landlock, List<LandlockRule> rules,
                        List<byte[]> seccomp) {

    /** A share's place in the plan: which device slot, and whether the guest mounts it read-only. */
    public record Share(int slot, boolean readOnly) {
    }

    public record Rlimit(int resource, long soft, long hard) {
    }

    public enum Access {
        READ(1), WRITE(2), DEVICE(3);

        final int code;

        Access(int code) {
            this.code = code;
        }
    }

    public record LandlockRule(Access access, String path) {
        public LandlockRule {
            Objects.requireNonNull(access);
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException("a Landlock rule names an absolute path: " + path);
            }
        }
    }

    public GuestPlan {
        Objects.requireNonNull(program);
        argv = List.copyOf(argv);
        environment = java.util.Collections.unmodifiableMap(new TreeMap<>(environment));
        Objects.requireNonNull(workingDirectory);
        shares = List.copyOf(shares);
        view = List.copyOf(view);
        rlimits = List.copyOf(rlimits);
        Objects.requireNonNull(memoryMax);
        Objects.requireNonNull(pidsMax);
        rules = List.copyOf(rules);
        seccomp = seccomp.stream().map(byte[]::clone).toList();
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("argv needs at least argv[0]");
        }
        if (seccomp.size() > 4) {
            throw new IllegalArgumentException("at most 4 seccomp programs");
        }
    }

    /** This plan with {@code extra} joined to its environment (the mediation session's proxy variables). */
    public GuestPlan withEnvironment(Map<String, String> extra) {
        Map<String, String> env = new TreeMap<>(environment);
        env.putAll(extra);
        return new GuestPlan(program, argv, env, workingDirectory, uid, gid, shares, view, rlimits, memoryMax, pidsMax,
                landlock, rules, seccomp);
    }

    /** Never prints environment values. */
    @Override
    public String toString() {
        return "GuestPlan[program=" + program + ", argv=" + argv.size() + ", env=" + environment.keySet() + ", cwd="
                + workingDirectory + ", shares=" + shares + ", view=" + view.size() + " ops, rules=" + rules.size()
                + ", seccomp=" + seccomp.size() + "]";
    }
}
