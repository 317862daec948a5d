package io.aasm.backend.nativ.internal.lower;

import io.aasm.backend.nativ.internal.host.HostFacts;
import io.aasm.backend.nativ.internal.lower.NativePlan.Namespace;
import io.aasm.backend.nativ.internal.lower.NativePlan.Rlimit;
import io.aasm.backend.nativ.internal.seccomp.FilterCompiler;
import io.aasm.backend.nativ.internal.seccomp.SyscallFilters;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Turns the requirements of one launch into a {@link NativePlan}. Every decision is made here; the
 * launcher only installs. A requirement that cannot be installed exactly refuses the whole launch.
 */
public final class Lowerer {
    private final HostFacts facts;
    private final Optional<FilterCompiler> compiler;
    private final Routes routes;

    public Lowerer(HostFacts facts, Optional<FilterCompiler> compiler) {
        this.facts = facts;
        this.compiler = compiler;
        this.routes = new Routes(facts, n -> compiler.map(c -> c.resolve(n).isPresent()).orElse(false));
    }

    public Routes routes() {
        return routes;
    }

    public Lowering lower(ExecutionSpec spec, List<ControlRequirement> requirements) {
        for (ControlRequirement r : requirements) {
            Route route = routes.route(r, requirements);
            if (route instanceof Route.Unsupported u) {
                return new Lowering.Refused(r.domain(), u.reason());
            }
            for (Need n : ((Route.Supported) route).needs()) {
                if (n.check(facts) instanceof PrerequisiteStatus.Unsatisfied un) {
                    return new Lowering.Refused(r.domain(), n.requirement() + ": " + un.detail());
                }
            }
        }
        List<String> argv = new ArrayList<>();
        argv.add(spec.program());
        argv.addAll(spec.args());
        NativePlan.Builder b = new NativePlan.Builder(spec.program(), argv, spec.workingDirectory(),
                environment(spec, requirements));
        Landlock ll = new Landlock(facts.landlockAbi());
        Seccomp sc = new Seccomp();
        for (ControlRequirement r : requirements) {
            Optional<String> refusal = switch (r.domain()) {
                case FILESYSTEM_READ, FILESYSTEM_WRITE -> {
                    // io_uring opens files from kernel workers; deny it rather than rely on how they are checked.
                    sc.denyIoUring = true;
                    yield ll.filesystem(r, b);
                }
                case NETWORK_EGRESS -> network(r, b, ll, sc);
                case NAME_RESOLUTION -> nameResolution(r, b, sc);
                case SYSCALL -> syscall(r, b, sc);
                case PROCESS_CREATION -> process(r, b, sc);
                case IPC -> ipc(r, b, ll);
                case CREDENTIAL -> credential(r, b);
                case RESOURCE -> resource(r, b);
            };
            if (refusal.isPresent()) {
                return new Lowering.Refused(r.domain(), refusal.get());
            }
        }
        ll.build().ifPresent(p -> b.landlock = p);
        Optional<String> seccompRefusal = sc.install(b);
        if (seccompRefusal.isPresent()) {
            return new Lowering.Refused(sc.ownerDomain(), seccompRefusal.get());
        }
        if (!b.namespaces.isEmpty() && !facts.root()) {
            b.namespaces.add(Namespace.USER);
        }
        return new Lowering.Lowered(b.build());
    }

    private static Map<String, String> environment(ExecutionSpec spec, List<ControlRequirement> reqs) {
        Map<String, String> env = new TreeMap<>(spec.environment());
        for (ControlRequirement r : reqs) {
            if (r.domain() == CapabilityDomain.CREDENTIAL) {
                List<String> names = r.scope() instanceof Scope.Delegated d ? d.environmentNames() : List.of();
                env.keySet().retainAll(names);
            }
        }
        return env;
    }

    private Optional<String> network(ControlRequirement r, NativePlan.Builder b, Landlock ll, Seccomp sc) {
        sc.denyIoUring = true;
        if (r.scope() instanceof Scope.Egress e && EgressCoverage.loopbackTcpOnly(e.grants())) {
            // Same decision as Routes.relay: the host's loopback, port by port, nothing else routable.
            List<Integer> ports = EgressCoverage.relayPorts(e.grants()).orElseThrow();
            b.namespaces.add(Namespace.NET);
            b.relayTcpPorts.addAll(ports);
            sc.sockets(false, CapabilityDomain.NETWORK_EGRESS);
            b.step(CapabilityDomain.NETWORK_EGRESS, "new network namespace: only its own loopback, no route out");
            b.step(CapabilityDomain.NETWORK_EGRESS, "relay: 127.0.0.1/[::1] ports " + ports
                    + " reach the host's 127.0.0.1/[::1] on the same port; nothing else leaves the namespace");
            b.step(CapabilityDomain.NETWORK_EGRESS, "seccomp: udp, raw and packet sockets denied; io_uring denied");
            return Optional.empty();
        }
        if (r.scope() instanceof Scope.Egress e && !e.grants().isEmpty()) {
            boolean udp = false;
            for (var g : e.grants()) {
                if (g.protocol() == io.aasm.ports.policy.Protocol.UDP) {
                    udp = true;
                } else {
                    for (int p = g.portFrom(); p <= g.portTo(); p++) {
                        ll.port(p);
                    }
                }
            }
            ll.handleNet();
            sc.sockets(udp, CapabilityDomain.NETWORK_EGRESS);
            b.step(CapabilityDomain.NETWORK_EGRESS, "landlock: TCP connect allowed only to ports " + ll.portSummary()
                    + " (on every destination, as granted)");
            b.step(CapabilityDomain.NETWORK_EGRESS, "seccomp: " + (udp ? "" : "udp, ") + "raw and packet sockets "
                    + "denied; io_uring denied");
            return Optional.empty();
        }
        if (facts.namespaces()) {
            b.namespaces.add(Namespace.NET);
            b.step(CapabilityDomain.NETWORK_EGRESS, "new network namespace: only its own loopback, no route out");
        } else {
            ll.handleNet();
            b.step(CapabilityDomain.NETWORK_EGRESS, "landlock: TCP connect denied on every port");
        }
        sc.sockets(false, CapabilityDomain.NETWORK_EGRESS);
        b.step(CapabilityDomain.NETWORK_EGRESS, "seccomp: udp, raw and packet sockets denied; io_uring denied");
        return Optional.empty();
    }

    private Optional<String> nameResolution(ControlRequirement r, NativePlan.Builder b, Seccomp sc) {
        StringBuilder hosts = new StringBuilder("127.0.0.1\tlocalhost\n::1\tlocalhost\n");
        if (r.scope() instanceof Scope.PinnedHosts p) {
            p.hosts().forEach((name, addr) -> hosts.append(addr).append('\t').append(name).append('\n'));
        }
        b.hostsFile = hosts.toString();
        b.namespaces.add(Namespace.MOUNT);
        sc.sockets(false, CapabilityDomain.NAME_RESOLUTION);
        b.step(CapabilityDomain.NAME_RESOLUTION, "private mount namespace: generated /etc/hosts ("
                + (r.scope() instanceof Scope.PinnedHosts p ? p.hosts().size() : 0) + " pinned names) and a "
                + "resolv.conf without nameservers bound over the host's");
        b.step(CapabilityDomain.NAME_RESOLUTION, "seccomp: udp sockets denied (no direct DNS queries)");
        return Optional.empty();
    }

    private Optional<String> syscall(ControlRequirement r, NativePlan.Builder b, Seccomp sc) {
        Scope.Syscalls s = r.scope() instanceof Scope.Syscalls x ? x : new Scope.Syscalls(SyscallMode.ALLOW, List.of());
        sc.mode = Optional.of(s.mode());
        sc.names = s.names();
        sc.owner = CapabilityDomain.SYSCALL;
        b.step(CapabilityDomain.SYSCALL, "seccomp: " + s.mode().token() + " list " + s.names()
                + (s.mode() == SyscallMode.ALLOW ? " plus the startup baseline; everything else fails with EPERM"
                : "; the named calls fail with EPERM"));
        return Optional.empty();
    }

    private Optional<String> process(ControlRequirement r, NativePlan.Builder b, Seccomp sc) {
        if (r.scope() instanceof Scope.ProcessCeiling c) {
            b.cgroupLimits.add(new NativePlan.CgroupLimit("pids", "pids.max", Integer.toString(c.maxProcesses())));
            b.step(CapabilityDomain.PROCESS_CREATION, "per-launch pids cgroup: pids.max=" + c.maxProcesses());
            return Optional.empty();
        }
        sc.denyProcess = true;
        b.step(CapabilityDomain.PROCESS_CREATION, "seccomp: fork/vfork/clone (without CLONE_THREAD) fail with EPERM, "
                + "clone3 with ENOSYS");
        return Optional.empty();
    }

    private Optional<String> ipc(ControlRequirement r, NativePlan.Builder b, Landlock ll) {
        var granted = r.scope() instanceof Scope.IpcGrants g ? g.channels() : java.util.Set.<io.aasm.ports.policy.IpcChannel>of();
        if (!granted.contains(io.aasm.ports.policy.IpcChannel.ABSTRACT_UNIX)) {
            ll.scope(LandlockRights.SCOPE_ABSTRACT_UNIX_SOCKET);
            b.step(CapabilityDomain.IPC, "landlock scope: abstract unix sockets outside the tree unreachable");
        }
        if (!granted.contains(io.aasm.ports.policy.IpcChannel.SIGNAL)) {
            ll.scope(LandlockRights.SCOPE_SIGNAL);
            b.step(CapabilityDomain.IPC, "landlock scope: signals to processes outside the tree denied");
        }
        if (!granted.contains(io.aasm.ports.policy.IpcChannel.SYSV)) {
            b.namespaces.add(Namespace.IPC);
            b.step(CapabilityDomain.IPC, "new IPC namespace: System V objects of the host unreachable");
        }
        return Optional.empty();
    }

    private Optional<String> credential(ControlRequirement r, NativePlan.Builder b) {
        b.namespaces.add(Namespace.PID);
        b.namespaces.add(Namespace.MOUNT);
        b.mountProc = true;
        b.step(CapabilityDomain.CREDENTIAL, "environment: exactly " + b.env.keySet().size()
                + " delegated names " + b.env.keySet());
        b.step(CapabilityDomain.CREDENTIAL, "inherited descriptors sealed: only 0,1,2 kept");
        b.step(CapabilityDomain.CREDENTIAL, "new pid namespace with its own /proc: other processes' environ unreachable");
        return Optional.empty();
    }

    private Optional<String> resource(ControlRequirement r, NativePlan.Builder b) {
        if (!(r.scope() instanceof Scope.Limits l)) {
            return Optional.of("resource scope must be limits");
        }
        l.maxCpuSeconds().ifPresent(v -> b.rlimits.put(Rlimit.CPU, v));
        l.maxOpenFiles().ifPresent(v -> b.rlimits.put(Rlimit.NOFILE, v));
        l.maxFileSizeBytes().ifPresent(v -> b.rlimits.put(Rlimit.FSIZE, v));
        l.maxMemoryBytes().ifPresent(v -> {
            b.rlimits.put(Rlimit.AS, v);
            boolean v2 = facts.cgroups().home("memory").map(h -> h.unified()).orElse(false);
            b.cgroupLimits.add(new NativePlan.CgroupLimit("memory", v2 ? "memory.max" : "memory.limit_in_bytes",
                    Long.toString(v)));
        });
        l.maxProcesses().ifPresent(v -> b.cgroupLimits.add(new NativePlan.CgroupLimit("pids", "pids.max",
                Long.toString(v))));
        l.maxWallClockSeconds().ifPresent(v -> b.wallClock = v);
        l.stated().forEach((k, v) -> b.step(CapabilityDomain.RESOURCE, k + "=" + v + " via " + switch (k) {
            case "max_cpu_seconds" -> "RLIMIT_CPU (soft=hard: SIGKILL)";
            case "max_open_files" -> "RLIMIT_NOFILE";
            case "max_file_size_bytes" -> "RLIMIT_FSIZE";
            case "max_memory_bytes" -> "memory controller + RLIMIT_AS";
            case "max_processes" -> "pids controller";
            default -> "supervisor deadline, whole-tree kill";
        }));
        return Optional.empty();
    }

    /** Compiled programs by concerns: the same policy is lowered at plan time and again at prepare time. */
    private final java.util.Map<SyscallFilters.Concerns, FilterCompiler.Result> programs =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(java.util.Map.Entry<SyscallFilters.Concerns, FilterCompiler.Result> e) {
                    return size() > 64;
                }
            });

    private FilterCompiler.Result compiled(SyscallFilters.Concerns c) {
        FilterCompiler.Result r = programs.get(c);
        if (r == null) {
            r = compiler.orElseThrow().compile(SyscallFilters.build(c));
            programs.put(c, r);
        }
        return r;
    }

    /** Accumulates the seccomp concerns; compiled once at the end because the launcher takes one program. */
    private final class Seccomp {
        Optional<SyscallMode> mode = Optional.empty();
        List<String> names = List.of();
        Optional<SyscallFilters.Sockets> sockets = Optional.empty();
        boolean denyIoUring;
        boolean denyProcess;
        CapabilityDomain owner = CapabilityDomain.SYSCALL;

        void sockets(boolean udp, CapabilityDomain d) {
            boolean allow = udp && sockets.map(SyscallFilters.Sockets::allowUdp).orElse(true);
            sockets = Optional.of(new SyscallFilters.Sockets(allow));
        }

        CapabilityDomain ownerDomain() {
            return owner;
        }

        Optional<String> install(NativePlan.Builder b) {
            boolean needed = mode.isPresent() || sockets.isPresent() || denyIoUring || denyProcess;
            if (compiler.isEmpty() || !facts.seccompFilter()) {
                return needed ? Optional.of("seccomp is not available on this host") : Optional.empty();
            }
            SyscallFilters.Concerns c = new SyscallFilters.Concerns(mode, names, sockets, denyIoUring, denyProcess);
            FilterCompiler.Result res = compiled(c);
            if (res instanceof FilterCompiler.Result.Rejected rej) {
                return Optional.of(rej.reason());
            }
            FilterCompiler.Result.Program p = (FilterCompiler.Result.Program) res;
            b.seccomp.add(new NativePlan.SeccompProgram(p.spec().purpose(), p.bytes()));
            return Optional.empty();
        }
    }
}
