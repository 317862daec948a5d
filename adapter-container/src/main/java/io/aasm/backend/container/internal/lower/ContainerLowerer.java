package io.aasm.backend.container.internal.lower;

import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns the requirements of one launch into a {@link ContainerPlan}. Every decision is made here; the
 * engine only creates what the plan says. A requirement that cannot be installed exactly refuses the launch.
 */
public final class ContainerLowerer {
    /** What the lowering needs to know about this host besides the launch. */
    public record Host(Optional<SyscallTable> table, Function<Need, PrerequisiteStatus> needs,
                       Supplier<List<Grant>> hostTree, Supplier<List<String>> hostMounts, List<String> ownState,
                       Supplier<List<Path>> engineSockets, Supplier<Optional<Path>> engineDataRoot) {
        public Host {
            ownState = List.copyOf(ownState);
        }
    }

    private final ContainerRoutes routes;
    private final Host host;

    public ContainerLowerer(ContainerRoutes routes, Host host) {
        this.routes = routes;
        this.host = host;
    }

    public ContainerRoutes routes() {
        return routes;
    }

    public Lowering lower(ExecutionSpec spec, List<ControlRequirement> reqs) {
        for (ControlRequirement r : reqs) {
            Route route = routes.route(r, reqs, spec.transport());
            if (route instanceof Route.Unsupported u) {
                return new Lowering.Refused(r.domain(), u.reason());
            }
            for (Need n : ((Route.Supported) route).needs()) {
                if (host.needs().apply(n) instanceof PrerequisiteStatus.Unsatisfied un) {
                    return new Lowering.Refused(r.domain(), n.requirement() + ": " + un.detail());
                }
            }
        }
        if (host.table().isEmpty()) {
            return new Lowering.Refused(CapabilityDomain.SYSCALL, Need.SYSCALL_TABLE.requirement()
                    + " is missing: the hardening baseline cannot be built");
        }
        List<String> argv = new ArrayList<>();
        argv.add(spec.program());
        argv.addAll(spec.args());
        ContainerPlan.Builder b = new ContainerPlan.Builder(spec.program(), argv, spec.workingDirectory(),
                environment(spec, reqs));
        List<String> general = new ArrayList<>();
        Optional<Lowering.Refused> fs = filesystem(spec, reqs, b, general);
        if (fs.isPresent()) {
            return fs.get();
        }
        Optional<SyscallMode> mode = Optional.empty();
        List<String> names = List.of();
        boolean denyProcess = false;
        Set<IpcChannel> ipc = Set.of();
        for (ControlRequirement r : reqs) {
            switch (r.domain()) {
                case NETWORK_EGRESS -> egress(r.scope(), spec, b);
                case NAME_RESOLUTION -> nameResolution(r.scope(), b);
                case SYSCALL -> {
                    Scope.Syscalls s = r.scope() instanceof Scope.Syscalls x ? x : new Scope.Syscalls(SyscallMode.ALLOW,
                            List.of());
                    mode = Optional.of(s.mode());
                    names = s.names();
                }
                case PROCESS_CREATION -> denyProcess = process(r.scope(), b);
                case IPC -> ipc = r.scope() instanceof Scope.IpcGrants g ? g.channels() : Set.of();
                case CREDENTIAL -> b.step(r.domain(), "environment: exactly the " + b.env.size() + " delegated names "
                        + b.env.keySet() + " (plus the engine's HOSTNAME, and HOME/PATH unless delegated); only stdio "
                        + "passed; own pid namespace");
                case RESOURCE -> resources((Scope.Limits) r.scope(), b);
                default -> {
                    // the filesystem was planned above
                }
            }
        }
        namespaces(reqs, ipc, b, general);
        SeccompProfile.Concerns concerns = new SeccompProfile.Concerns(mode, names, denyProcess);
        b.seccomp = SeccompProfile.build(host.table().get(), concerns);
        b.init = !denyProcess;
        String seccomp = SeccompProfile.describe(host.table().get(), concerns);
        if (ContainerRoutes.stated(reqs, CapabilityDomain.SYSCALL)) {
            b.step(CapabilityDomain.SYSCALL, seccomp);
        } else {
            general.add(seccomp + " (syscalls not stated: the hardening baseline only)");
        }
        return new Lowering.Lowered(b.build(), general);
    }

    private static void egress(Scope scope, ExecutionSpec spec, ContainerPlan.Builder b) {
        b.step(CapabilityDomain.NETWORK_EGRESS, "network mode none, networking disabled: only the container's own "
                + "loopback, no route out");
        b.proxyPort = ContainerRoutes.mediatedPort(scope, spec.transport());
        b.proxyPort.ifPresent(port -> b.step(CapabilityDomain.NETWORK_EGRESS, "transport mediation: the supervisor's "
                + "relay enters the container's network namespace from outside and listens at 127.0.0.1:" + port
                + " (and [::1] where it has IPv6), carrying each connection to this launch's mediation session (its "
                + "credential first); the container's first process (/.aasm-relay) waits for the listener, then starts "
                + "the program with the session's proxy variables"));
    }

    private static Map<String, String> environment(ExecutionSpec spec, List<ControlRequirement> reqs) {
        Map<String, String> env = new TreeMap<>(spec.environment());
        for (ControlRequirement r : reqs) {
            if (r.domain() == CapabilityDomain.CREDENTIAL) {
                env.keySet().retainAll(r.scope() instanceof Scope.Delegated d ? d.environmentNames() : List.of());
            }
        }
        return env;
    }

    private Optional<Lowering.Refused> filesystem(ExecutionSpec spec, List<ControlRequirement> reqs,
                                                  ContainerPlan.Builder b, List<String> general) {
        Optional<List<String>> read = paths(reqs, CapabilityDomain.FILESYSTEM_READ).map(Scope.Paths::paths);
        Optional<Scope.Paths> write = paths(reqs, CapabilityDomain.FILESYSTEM_WRITE);
        List<Path> protectedPaths = new ArrayList<>();
        List<String> all = new ArrayList<>(spec.protectedPaths());
        all.addAll(host.ownState());
        for (String p : all) {
            try {
                protectedPaths.add(Path.of(p).toRealPath());
            } catch (IOException e) {
                // not there (yet): nothing to protect
            }
        }
        ViewPlanner.Result view = ViewPlanner.plan(new ViewPlanner.Input(read, write.map(Scope.Paths::paths),
                write.map(Scope.Paths::privateDirs).orElse(List.of()), protectedPaths, host.engineSockets().get(),
                host.engineDataRoot().get(), read.isPresent() ? List.of() : host.hostTree().get(), host.hostMounts().get()));
        if (view instanceof ViewPlanner.Result.Refused r) {
            return Optional.of(new Lowering.Refused(r.domain(), r.detail()));
        }
        ViewPlanner.Result.Planned p = (ViewPlanner.Result.Planned) view;
        b.mounts.addAll(p.mounts());
        p.steps().forEach((d, s) -> s.forEach(x -> b.step(d, x)));
        general.addAll(p.general());
        if (read.isEmpty() && write.isEmpty()) {
            general.add("filesystem not stated: the host's folders are bound read-write (only aasm's own state is "
                    + "read-only)");
        }
        return Optional.empty();
    }

    private static Optional<Scope.Paths> paths(List<ControlRequirement> reqs, CapabilityDomain d) {
        return reqs.stream().filter(r -> r.domain() == d).findFirst()
                .map(r -> r.scope() instanceof Scope.Paths p ? p : new Scope.Paths(List.of()));
    }

    private static void nameResolution(Scope scope, ContainerPlan.Builder b) {
        StringBuilder hosts = new StringBuilder("127.0.0.1\tlocalhost\n::1\tlocalhost\n");
        int pinned = 0;
        if (scope instanceof Scope.PinnedHosts p) {
            p.hosts().forEach((name, addr) -> hosts.append(addr).append('\t').append(name).append('\n'));
            pinned = p.hosts().size();
        }
        b.generated.put("hosts", hosts.toString());
        b.generated.put("resolv.conf", "# aasm: no nameserver; names resolve only from the pinned hosts file\n"
                + "options attempts:1 timeout:1\n");
        b.generated.put("nsswitch.conf", "hosts: files\nnetworks: files\n");
        for (String f : List.of("hosts", "resolv.conf", "nsswitch.conf")) {
            b.mounts.add(new Mount.Generated(f, "/etc/" + f));
        }
        b.step(CapabilityDomain.NAME_RESOLUTION, "generated /etc/hosts (" + pinned + " pinned names and localhost), "
                + "a resolv.conf without nameservers and an nsswitch.conf whose hosts database is the file only, bound "
                + "read-only over the container's /etc; no network, so no resolver is reachable");
    }

    /** True when process creation is denied altogether. */
    private static boolean process(Scope scope, ContainerPlan.Builder b) {
        if (scope instanceof Scope.ProcessCeiling c) {
            b.pids = tighter(b.pids, c.maxProcesses() + 1L);
            b.step(CapabilityDomain.PROCESS_CREATION, "the engine's pids limit " + (c.maxProcesses() + 1)
                    + " (the ceiling " + c.maxProcesses() + " plus the container's init)");
            return false;
        }
        b.step(CapabilityDomain.PROCESS_CREATION, "seccomp profile: fork/vfork and clone without CLONE_THREAD fail "
                + "with EPERM, clone3 with ENOSYS; nothing forks the program: it is the container's pid 1");
        return true;
    }

    private static void namespaces(List<ControlRequirement> reqs, Set<IpcChannel> ipc, ContainerPlan.Builder b,
                                   List<String> general) {
        boolean ipcStated = ContainerRoutes.stated(reqs, CapabilityDomain.IPC);
        b.hostIpc = ipc.contains(IpcChannel.SYSV);
        b.hostNetwork = ipc.contains(IpcChannel.ABSTRACT_UNIX);
        boolean hidesProcesses = ContainerRoutes.stated(reqs, CapabilityDomain.CREDENTIAL)
                || ContainerRoutes.stated(reqs, CapabilityDomain.FILESYSTEM_READ)
                || ContainerRoutes.stated(reqs, CapabilityDomain.FILESYSTEM_WRITE)
                || ipcStated && !ipc.contains(IpcChannel.SIGNAL);
        b.hostPid = !hidesProcesses;
        if (ipcStated) {
            b.step(CapabilityDomain.IPC, (b.hostPid ? "the host's pid namespace (signals granted)" : "own pid namespace")
                    + "; " + (b.hostNetwork ? "the host's network namespace (abstract unix sockets granted)"
                    : "own network namespace (abstract unix sockets)") + "; " + (b.hostIpc
                    ? "the host's IPC namespace (System V granted)" : "own IPC namespace (System V)"));
        } else if (b.hostPid) {
            general.add("the host's pid namespace is shared: neither credentials, filesystem nor ipc is stated");
        }
        if (b.hostNetwork) {
            general.add("the host's network namespace is shared for the abstract unix socket grant (network egress "
                    + "is not stated)");
        }
    }

    private static OptionalLong tighter(OptionalLong current, long candidate) {
        return OptionalLong.of(current.isPresent() ? Math.min(current.getAsLong(), candidate) : candidate);
    }

    private static void resources(Scope.Limits l, ContainerPlan.Builder b) {
        l.maxMemoryBytes().ifPresent(v -> b.memory = OptionalLong.of(v));
        l.maxProcesses().ifPresent(v -> b.pids = tighter(b.pids, v + 1));
        l.maxCpuSeconds().ifPresent(v -> b.ulimits.put("cpu", v));
        l.maxOpenFiles().ifPresent(v -> b.ulimits.put("nofile", v));
        l.maxFileSizeBytes().ifPresent(v -> b.ulimits.put("fsize", v));
        l.maxWallClockSeconds().ifPresent(v -> b.wallClock = OptionalLong.of(v));
        l.stated().forEach((k, v) -> b.step(CapabilityDomain.RESOURCE, k + "=" + v + " via " + switch (k) {
            case "max_cpu_seconds" -> "the engine's cpu rlimit (soft=hard: SIGKILL)";
            case "max_open_files" -> "the engine's nofile rlimit";
            case "max_file_size_bytes" -> "the engine's fsize rlimit";
            case "max_memory_bytes" -> "the engine's memory limit (swap limited to the same value)";
            case "max_processes" -> "the engine's pids limit (plus one for the container's init)";
            default -> "supervisor deadline, container removed";
        }));
    }
}
