package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Everything the launcher must install for one launch, already decided: the mechanism-level form of
 * the requirements. {@code installed} says, per domain, which steps implement it (for lower() and
 * for evidence). Built by {@link Lowerer}; mapped onto the launcher's wire message separately.
 */
public record LandlockSeccompPlan(
        String program,
        List<String> argv,
        String workingDirectory,
        Map<String, String> environment,
        Optional<LandlockPlan> landlock,
        List<SeccompProgram> seccomp,
        Set<Namespace> namespaces,
        Optional<View> view,
        Map<String, String> generatedFiles,
        boolean mountProc,
        Map<Rlimit, Long> rlimits,
        List<CgroupLimit> cgroupLimits,
        OptionalLong wallClockSeconds,
        Map<CapabilityDomain, List<String>> installed,
        List<Integer> relayTcpPorts,
        List<Integer> relayUdpPorts,
        OptionalInt proxyPort,
        boolean loopbackInjection,
        Authority authority,
        Optional<Canaries> canaries,
        DeniedCalls deniedCalls) {
    public LandlockSeccompPlan {
        Objects.requireNonNull(program);
        argv = List.copyOf(argv);
        Objects.requireNonNull(workingDirectory);
        environment = Map.copyOf(environment);
        Objects.requireNonNull(landlock);
        seccomp = List.copyOf(seccomp);
        namespaces = Set.copyOf(namespaces);
        Objects.requireNonNull(view);
        generatedFiles = Map.copyOf(generatedFiles);
        Objects.requireNonNull(authority);
        Objects.requireNonNull(canaries);
        Objects.requireNonNull(deniedCalls);
        rlimits = Map.copyOf(rlimits);
        cgroupLimits = List.copyOf(cgroupLimits);
        Objects.requireNonNull(wallClockSeconds);
        EnumMap<CapabilityDomain, List<String>> copy = new EnumMap<>(CapabilityDomain.class);
        installed.forEach((d, s) -> copy.put(d, List.copyOf(s)));
        installed = java.util.Collections.unmodifiableMap(copy);
        relayTcpPorts = List.copyOf(relayTcpPorts);
        relayUdpPorts = List.copyOf(relayUdpPorts);
        Objects.requireNonNull(proxyPort);
        if (loopbackInjection && relayTcpPorts.isEmpty()) {
            throw new IllegalArgumentException("loopback injection needs granted TCP ports");
        }
        if (!(relayTcpPorts.isEmpty() && relayUdpPorts.isEmpty() && proxyPort.isEmpty())
                && !namespaces.contains(Namespace.NET)) {
            throw new IllegalArgumentException("relayed ports need a network namespace");
        }
        if (view.isPresent() != namespaces.contains(Namespace.MOUNT)) {
            throw new IllegalArgumentException("a filesystem view and a mount namespace go together");
        }
    }

    /**
     * The same plan for another call of the same decision: only the parts a lowering copies from the call without
     * deciding anything from them (the program, its arguments, its environment's values) are replaced. The plan
     * cache reuses a plan this way; which parts are copied is stated where they are read ({@link Lowerer}).
     */
    public LandlockSeccompPlan forCall(String program, List<String> argv, Map<String, String> environment) {
        if (!environment.keySet().equals(this.environment.keySet())) {
            throw new IllegalArgumentException("the environment's names decide the plan; only values may differ");
        }
        return new LandlockSeccompPlan(program, argv, workingDirectory, environment, landlock, seccomp, namespaces,
                view, generatedFiles, mountProc, rlimits, cgroupLimits, wallClockSeconds, installed, relayTcpPorts,
                relayUdpPorts, proxyPort, loopbackInjection, authority, canaries, deniedCalls);
    }

    /**
     * What every launch installs around the program whatever the policy states: a new session (and a
     * pseudo-terminal of its own when the caller's stdin is a terminal), every capability dropped, and a
     * program pid chosen at random in its pid namespace (so per-pid names do not collide across launches).
     */
    public record Authority(boolean newTerminal, boolean dropCapabilities, boolean randomPid) {
    }

    public enum Namespace { USER, MOUNT, PID, NET, IPC }

    public enum Rlimit { AS, CPU, FSIZE, NOFILE, NPROC }

    /** Landlock ruleset: handled rights, rules, and scopes (ABI 6). */
    public record LandlockPlan(int abi, long handledFs, long handledNet, long scoped, List<PathRule> paths,
                               List<PortRule> ports) {
        public LandlockPlan {
            paths = List.copyOf(paths);
            ports = List.copyOf(ports);
        }
    }

    public record PathRule(String path, long access) {
    }

    public record PortRule(int port, long access) {
    }

    /** A compiled seccomp program and what it is for. */
    public record SeccompProgram(String purpose, byte[] bpf) {
        public SeccompProgram {
            bpf = bpf.clone();
        }

        @Override
        public byte[] bpf() {
            return bpf.clone();
        }

        /** By content: two plans with the same filters are the same plan (a record compares arrays by identity). */
        @Override
        public boolean equals(Object o) {
            return o instanceof SeccompProgram p && purpose.equals(p.purpose) && java.util.Arrays.equals(bpf, p.bpf);
        }

        @Override
        public int hashCode() {
            return purpose.hashCode() * 31 + java.util.Arrays.hashCode(bpf);
        }
    }

    /** A controller setting in a per-launch cgroup, e.g. pids / pids.max / 8. */
    public record CgroupLimit(String controller, String file, String value) {
    }

    /** Mutable accumulator used only while lowering. */
    public static final class Builder {
        final String program;
        final List<String> argv;
        final String cwd;
        final Map<String, String> env;
        LandlockPlan landlock;
        final List<SeccompProgram> seccomp = new ArrayList<>();
        final Set<Namespace> namespaces = EnumSet.noneOf(Namespace.class);
        View view;
        final Map<String, String> generatedFiles = new LinkedHashMap<>();
        boolean mountProc;
        final Map<Rlimit, Long> rlimits = new LinkedHashMap<>();
        final List<CgroupLimit> cgroupLimits = new ArrayList<>();
        Long wallClock;
        final Map<CapabilityDomain, List<String>> installed = new EnumMap<>(CapabilityDomain.class);
        final List<Integer> relayTcpPorts = new ArrayList<>();
        final List<Integer> relayUdpPorts = new ArrayList<>();
        /** The in-namespace port of the supervisor's proxy (transport mediation), when the launch is mediated. */
        Integer proxyPort;
        /** Granted TCP ports reached by an injected host socket instead of through the relay (LoopbackPath). */
        boolean loopbackInjection;
        Authority authority = new Authority(true, true, false);
        Optional<Canaries> canaries = Optional.empty();
        DeniedCalls deniedCalls = DeniedCalls.none();

        public Builder(String program, List<String> argv, String cwd, Map<String, String> env) {
            this.program = program;
            this.argv = argv;
            this.cwd = cwd;
            this.env = env;
        }

        void step(CapabilityDomain d, String s) {
            installed.computeIfAbsent(d, k -> new ArrayList<>()).add(s);
        }

        LandlockSeccompPlan build() {
            return new LandlockSeccompPlan(program, argv, cwd, env, Optional.ofNullable(landlock), seccomp, namespaces,
                    Optional.ofNullable(view), generatedFiles, mountProc, rlimits, cgroupLimits,
                    wallClock == null ? OptionalLong.empty() : OptionalLong.of(wallClock), installed,
                    relayTcpPorts, relayUdpPorts, proxyPort == null ? OptionalInt.empty() : OptionalInt.of(proxyPort),
                    loopbackInjection, authority, canaries, deniedCalls);
        }
    }
}
