package io.aasm.backend.container.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Everything one container is created with, already decided: the mechanism-level form of a launch's
 * requirements. {@code installed} says, per domain, which steps implement it (for the plan and the
 * evidence). {@code proxyPort}: the launch is mediated, and the transport relay listens there inside the
 * container (RELAY.md). Built by {@link ContainerLowerer}; turned into the engine's create request elsewhere.
 */
public record ContainerPlan(
        String program,
        List<String> argv,
        String workingDirectory,
        Map<String, String> environment,
        List<Mount> mounts,
        Namespaces namespaces,
        boolean init,
        String seccompProfile,
        Limits limits,
        OptionalLong wallClockSeconds,
        Map<String, String> generatedFiles,
        Map<CapabilityDomain, List<String>> installed,
        java.util.OptionalInt proxyPort) {

    /** A plan without transport mediation. */
    public ContainerPlan(String program, List<String> argv, String workingDirectory, Map<String, String> environment,
                         List<Mount> mounts, Namespaces namespaces, boolean init, String seccompProfile, Limits limits,
                         OptionalLong wallClockSeconds, Map<String, String> generatedFiles,
                         Map<CapabilityDomain, List<String>> installed) {
        this(program, argv, workingDirectory, environment, mounts, namespaces, init, seccompProfile, limits,
                wallClockSeconds, generatedFiles, installed, java.util.OptionalInt.empty());
    }

    public ContainerPlan {
        Objects.requireNonNull(proxyPort);
        Objects.requireNonNull(program);
        argv = List.copyOf(argv);
        Objects.requireNonNull(workingDirectory);
        environment = java.util.Collections.unmodifiableMap(new TreeMap<>(environment));
        mounts = List.copyOf(mounts);
        Objects.requireNonNull(namespaces);
        Objects.requireNonNull(seccompProfile);
        Objects.requireNonNull(limits);
        Objects.requireNonNull(wallClockSeconds);
        generatedFiles = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(generatedFiles));
        EnumMap<CapabilityDomain, List<String>> copy = new EnumMap<>(CapabilityDomain.class);
        installed.forEach((d, s) -> copy.put(d, List.copyOf(s)));
        installed = java.util.Collections.unmodifiableMap(copy);
    }

    /** The same container in the host's network namespace: only the network probe's control uses it. */
    public ContainerPlan withHostNetwork() {
        return new ContainerPlan(program, argv, workingDirectory, environment, mounts, new Namespaces(true,
                namespaces.hostPid(), namespaces.hostIpc()), init, seccompProfile, limits, wallClockSeconds,
                generatedFiles, installed, proxyPort);
    }

    /**
     * The same container with variables added to its environment (they override a delegated value): the
     * mediation session's proxy variables, known only when the kernel opened the session.
     */
    public ContainerPlan withEnvironment(Map<String, String> added) {
        Map<String, String> env = new TreeMap<>(environment);
        env.putAll(added);
        return new ContainerPlan(program, argv, workingDirectory, env, mounts, namespaces, init, seccompProfile, limits,
                wallClockSeconds, generatedFiles, installed, proxyPort);
    }

    /**
     * Which of the host's namespaces the container shares. The defaults are the engine's own (private) for
     * pid and IPC, and none for the network; each is shared only where a grant, or an unstated domain that
     * the container would otherwise confine beyond the policy, needs it (ContainerRoutes says which).
     */
    public record Namespaces(boolean hostNetwork, boolean hostPid, boolean hostIpc) {
    }

    /** Engine-enforced ceilings: memory (with swap equal to it), pids, and rlimits by the engine's names. */
    public record Limits(OptionalLong memoryBytes, OptionalLong pids, Map<String, Long> ulimits) {
        public Limits {
            Objects.requireNonNull(memoryBytes);
            Objects.requireNonNull(pids);
            ulimits = java.util.Collections.unmodifiableMap(new TreeMap<>(ulimits));
        }

        public static Limits none() {
            return new Limits(OptionalLong.empty(), OptionalLong.empty(), Map.of());
        }
    }

    /** Mutable accumulator used only while lowering. */
    public static final class Builder {
        final String program;
        final List<String> argv;
        final String cwd;
        final Map<String, String> env;
        final List<Mount> mounts = new ArrayList<>();
        boolean hostNetwork;
        boolean hostPid;
        boolean hostIpc;
        boolean init = true;
        String seccomp = "";
        OptionalLong memory = OptionalLong.empty();
        OptionalLong pids = OptionalLong.empty();
        final Map<String, Long> ulimits = new TreeMap<>();
        OptionalLong wallClock = OptionalLong.empty();
        java.util.OptionalInt proxyPort = java.util.OptionalInt.empty();
        final Map<String, String> generated = new LinkedHashMap<>();
        final Map<CapabilityDomain, List<String>> installed = new EnumMap<>(CapabilityDomain.class);

        Builder(String program, List<String> argv, String cwd, Map<String, String> env) {
            this.program = program;
            this.argv = argv;
            this.cwd = cwd;
            this.env = env;
        }

        void step(CapabilityDomain d, String s) {
            installed.computeIfAbsent(d, k -> new ArrayList<>()).add(s);
        }

        ContainerPlan build() {
            return new ContainerPlan(program, argv, cwd, env, mounts, new Namespaces(hostNetwork, hostPid, hostIpc),
                    init, seccomp, new Limits(memory, pids, ulimits), wallClock, generated, installed, proxyPort);
        }
    }
}
