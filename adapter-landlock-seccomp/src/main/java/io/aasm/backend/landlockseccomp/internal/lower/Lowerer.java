package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan.Namespace;
import io.aasm.backend.landlockseccomp.internal.lower.LandlockSeccompPlan.Rlimit;
import io.aasm.backend.landlockseccomp.internal.seccomp.FilterCompiler;
import io.aasm.ports.backend.ExecutionSpec;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.capability.PrerequisiteStatus;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns the requirements of one launch into a {@link LandlockSeccompPlan}. Every decision is made here; the
 * launcher only installs. A requirement that cannot be installed exactly refuses the whole launch.
 */
public final class Lowerer {
    private final HostFacts facts;
    private final Optional<FilterCompiler> compiler;
    private final Routes routes;
    private final SeccompPrograms programs;
    private final List<String> ownState;
    private final Optional<String> canaryRoot;
    private final CanaryChooser canaries;
    private final java.util.function.Function<String, Optional<Integer>> numbers;

    /**
     * {@code ownState}: the backend's own state (probe cache, generated files), protected like aasm's;
     * {@code canaryRoot}: the folder the file canaries are made in (empty: launches carry no canaries).
     */
    public Lowerer(HostFacts facts, Optional<FilterCompiler> compiler, List<String> ownState,
                   Optional<String> canaryRoot) {
        this.facts = facts;
        this.compiler = compiler;
        this.routes = new Routes(facts, n -> compiler.map(c -> c.resolve(n).isPresent()).orElse(false));
        this.programs = new SeccompPrograms(facts, compiler);
        this.ownState = List.copyOf(ownState);
        this.canaryRoot = canaryRoot;
        this.numbers = n -> compiler.flatMap(c -> {
            java.util.OptionalInt nr = c.resolve(n);
            return nr.isPresent() ? Optional.of(nr.getAsInt()) : Optional.empty();
        });
        this.canaries = new CanaryChooser(numbers);
    }

    public Lowerer(HostFacts facts, Optional<FilterCompiler> compiler, List<String> ownState) {
        this(facts, compiler, ownState, Optional.empty());
    }

    public Lowerer(HostFacts facts, Optional<FilterCompiler> compiler) {
        this(facts, compiler, List.of());
    }

    public Routes routes() {
        return routes;
    }

    public Lowering lower(ExecutionSpec spec, List<ControlRequirement> requirements) {
        return lower(spec, requirements, PathReads.DIRECT);
    }

    /** The same, every question to the filesystem asked through {@code reads} (the plan cache records them). */
    public Lowering lower(ExecutionSpec spec, List<ControlRequirement> requirements, PathReads reads) {
        for (ControlRequirement r : requirements) {
            Route route = routes.route(r, requirements, spec.transport());
            if (route instanceof Route.Unsupported u) {
                return new Lowering.Refused(r.domain(), u.reason());
            }
            for (Need n : ((Route.Supported) route).needs()) {
                if (n.check(facts, reads) instanceof PrerequisiteStatus.Unsatisfied un) {
                    return new Lowering.Refused(r.domain(), n.requirement() + ": " + un.detail());
                }
            }
        }
        List<String> argv = new ArrayList<>();
        argv.add(spec.program());
        argv.addAll(spec.args());
        LandlockSeccompPlan.Builder b = new LandlockSeccompPlan.Builder(spec.program(), argv, spec.workingDirectory(),
                environment(spec, requirements));
        Landlock ll = new Landlock(facts.landlockAbi(), reads);
        SeccompConcerns sc = new SeccompConcerns();
        FilesystemGrants fs = new FilesystemGrants(reads);
        List<String> generatedEtc = new ArrayList<>();
        for (ControlRequirement r : requirements) {
            Optional<String> refusal = switch (r.domain()) {
                case FILESYSTEM_READ, FILESYSTEM_WRITE -> {
                    // io_uring opens files from kernel workers; deny it rather than rely on how they are checked.
                    sc.denyIoUring = true;
                    yield fs.add(r);
                }
                case NETWORK_EGRESS -> network(r, spec, b, ll, sc);
                case NAME_RESOLUTION -> nameResolution(r, b, sc, generatedEtc);
                case SYSCALL -> syscall(r, b, sc);
                case PROCESS_CREATION -> process(r, b, sc);
                case IPC -> ipc(r, b, ll);
                case CREDENTIAL -> credential(b);
                case RESOURCE -> resource(r, b);
            };
            if (refusal.isPresent()) {
                return new Lowering.Refused(r.domain(), refusal.get());
            }
        }
        Optional<Lowering.Refused> fsRefusal = filesystem(spec, fs, b, ll, sc, generatedEtc);
        if (fsRefusal.isPresent()) {
            return fsRefusal.get();
        }
        ll.build().ifPresent(p -> b.landlock = p);
        Optional<String> seccompRefusal = programs.install(sc.concerns(b.namespaces.contains(Namespace.NET)), b);
        if (seccompRefusal.isPresent()) {
            return new Lowering.Refused(sc.owner, seccompRefusal.get());
        }
        b.deniedCalls = DeniedCalls.of(sc, numbers);
        // Without root, dropping the bounding set (and every namespace) needs a user namespace of our own.
        if (!facts.root()) {
            b.namespaces.add(Namespace.USER);
        }
        b.authority = new LandlockSeccompPlan.Authority(true, true, b.namespaces.contains(Namespace.PID));
        if (canaryRoot.isPresent()) {
            List<Integer> reachable = new ArrayList<>(b.relayTcpPorts);
            if (b.landlock != null) {
                b.landlock.ports().forEach(p -> reachable.add(p.port()));
            }
            b.canaries = canaries.choose(requirements, fs, canaryRoot, reachable, reads);
        }
        return new Lowering.Lowered(b.build());
    }

    /**
     * The program's environment: the spec's, reduced to the delegated names when credentials are stated. Only
     * its names decide anything in a plan (the credential step lists them); its values are copied.
     */
    public static Map<String, String> environment(ExecutionSpec spec, List<ControlRequirement> reqs) {
        Map<String, String> env = new TreeMap<>(spec.environment());
        for (ControlRequirement r : reqs) {
            if (r.domain() == CapabilityDomain.CREDENTIAL) {
                List<String> names = r.scope() instanceof Scope.Delegated d ? d.environmentNames() : List.of();
                env.keySet().retainAll(names);
            }
        }
        return env;
    }

    /** The view (mount namespace) and the Landlock filesystem rules, decided together. */
    private Optional<Lowering.Refused> filesystem(ExecutionSpec spec, FilesystemGrants fs, LandlockSeccompPlan.Builder b,
                                                  Landlock ll, SeccompConcerns sc, List<String> generatedEtc) {
        List<String> protectedRoots = new ArrayList<>(spec.protectedPaths());
        protectedRoots.addAll(ownState);
        List<Grant> protectedPaths;
        try {
            protectedPaths = fs.resolveAll(protectedRoots);
        } catch (java.io.IOException e) {
            return Optional.of(new Lowering.Refused(CapabilityDomain.FILESYSTEM_WRITE,
                    "aasm's own paths could not be resolved: " + e.getMessage()));
        }
        Optional<String> overlap = fs.writeInside(protectedPaths);
        if (overlap.isPresent()) {
            return Optional.of(new Lowering.Refused(CapabilityDomain.FILESYSTEM_WRITE, overlap.get()));
        }
        boolean freshProc = b.namespaces.contains(Namespace.PID);
        boolean mount = fs.stated() || !generatedEtc.isEmpty() || freshProc || !protectedPaths.isEmpty();
        if (!mount) {
            return Optional.empty();
        }
        if (!facts.namespaces()) {
            if (fs.stated()) {
                return Optional.of(new Lowering.Refused(fs.read().isPresent() ? CapabilityDomain.FILESYSTEM_READ
                        : CapabilityDomain.FILESYSTEM_WRITE, "the filesystem view needs a mount namespace: "
                        + Need.NAMESPACES.requirement()));
            }
            return Optional.empty(); // aasm's own paths: nothing more can be done here without namespaces
        }
        View view = ViewPlanner.plan(new ViewPlanner.Input(fs.read(), fs.write(), freshProc, fs.privateDirs(),
                generatedEtc, protectedPaths, spec.workingDirectory()));
        b.view = view;
        b.namespaces.add(Namespace.MOUNT);
        b.mountProc = freshProc && view.described().stream().anyMatch(d -> d.startsWith("/proc:"));
        fs.read().ifPresent(grants -> {
            ll.read(grants);
            b.step(CapabilityDomain.FILESYSTEM_READ, "read-only mounts and landlock ABI " + ll.abi() + " ("
                    + LandlockRights.describeFs(LandlockRights.READ) + ") beneath " + FilesystemGrants.describe(grants));
        });
        fs.write().ifPresent(grants -> {
            ll.write(grants);
            b.step(CapabilityDomain.FILESYSTEM_WRITE, "read-write mounts and landlock ABI " + ll.abi() + " ("
                    + LandlockRights.describeFs(LandlockRights.write(ll.abi())) + ") beneath "
                    + FilesystemGrants.describe(grants));
        });
        fs.privateDirs().forEach(d -> ll.implicitFolder(d, LandlockRights.write(ll.abi()) | LandlockRights.READ));
        java.util.Set<String> roTruncate = ReadOnlyTruncate.paths(view, fs.read().orElse(List.of()),
                fs.write().orElse(List.of()));
        if (!roTruncate.isEmpty() && (ll.handledFs() & LandlockRights.TRUNCATE) != 0) {
            ll.truncateBeneathReadOnly(roTruncate);
            b.step(CapabilityDomain.FILESYSTEM_READ, "landlock truncate also beneath the read-only mounts of "
                    + roTruncate + ", where the mount refuses it first (EROFS), so the kernel's check of an open() "
                    + "stops at the grant instead of walking to the root");
        }
        if (fs.stated()) {
            implicitDevices(ll);
            if (view.base() == View.Base.EMPTY && !fs.read().orElse(List.of()).isEmpty()) {
                // The view holds only the granted paths and the folders leading to them, so its folders may be
                // listed: programs that list or walk from / (os.listdir("/"), find /) work as on the host.
                ll.implicit("/", LandlockRights.READ_DIR);
            }
            generatedEtc.forEach(name -> ll.implicit("/etc/" + name, LandlockRights.READ_FILE));
            CapabilityDomain owner = fs.read().isPresent() ? CapabilityDomain.FILESYSTEM_READ
                    : CapabilityDomain.FILESYSTEM_WRITE;
            view.described().forEach(d -> b.step(owner, d));
        }
        return Optional.empty();
    }

    /** Every view that confines the filesystem carries the standard device set; Landlock must allow it too. */
    private static void implicitDevices(Landlock ll) {
        long file = LandlockRights.READ_FILE | LandlockRights.WRITE_FILE | LandlockRights.TRUNCATE
                | LandlockRights.IOCTL_DEV;
        ViewPlanner.DEVICES.forEach(d -> ll.implicit(d, file));
        ll.implicit("/dev", LandlockRights.READ_DIR | LandlockRights.READ_FILE);
        ll.implicit("/dev/pts", file | LandlockRights.READ_DIR);
        ll.implicit("/dev/shm", LandlockRights.write(ll.abi()) | LandlockRights.READ);
    }

    private Optional<String> network(ControlRequirement r, ExecutionSpec spec, LandlockSeccompPlan.Builder b, Landlock ll,
                                     SeccompConcerns sc) {
        sc.denyIoUring = true;
        Routes.Egress choice = routes.egress(r.scope(), spec.transport());
        if (choice instanceof Routes.Egress.Inexpressible i) {
            return Optional.of(i.reason());
        }
        if (choice instanceof Routes.Egress.Mediated m) {
            return mediated(m, b, sc);
        }
        if (choice instanceof Routes.Egress.OwnLoopback || choice instanceof Routes.Egress.Relayed) {
            b.namespaces.add(Namespace.NET);
            b.step(CapabilityDomain.NETWORK_EGRESS, "new network namespace: only its own loopback (TCP and UDP), "
                    + "no route out");
        }
        if (choice instanceof Routes.Egress.Relayed relayed) {
            List<Integer> tcp = relayed.tcp();
            List<Integer> udp = relayed.udp();
            b.relayTcpPorts.addAll(tcp);
            b.relayUdpPorts.addAll(udp);
            b.loopbackInjection = LoopbackPath.inject(facts, tcp, udp);
            if (b.loopbackInjection) {
                b.step(CapabilityDomain.NETWORK_EGRESS, "injection: connect() to 127.0.0.1/[::1] TCP ports " + tcp
                        + " is answered with a socket of the host's loopback on the same port, connected by the relay "
                        + "outside the namespace; other connects stay in the namespace (the relay still serves those "
                        + "ports there); nothing else leaves the namespace");
            } else {
                b.step(CapabilityDomain.NETWORK_EGRESS, "relay: 127.0.0.1/[::1] " + (tcp.isEmpty() ? ""
                        : "TCP ports " + tcp) + (tcp.isEmpty() || udp.isEmpty() ? "" : " and ")
                        + (udp.isEmpty() ? "" : "UDP ports " + udp)
                        + " reach the host's 127.0.0.1/[::1] on the same port; nothing else leaves the namespace");
            }
        }
        if (choice instanceof Routes.Egress.NoConnect) {
            ll.handleNet();
            b.step(CapabilityDomain.NETWORK_EGRESS, "landlock: TCP connect denied on every port");
        }
        if (choice instanceof Routes.Egress.ByPort byPort) {
            ((Scope.Egress) r.scope()).grants().stream().filter(g -> g.protocol() == Protocol.TCP)
                    .forEach(g -> {
                        for (int p = g.portFrom(); p <= g.portTo(); p++) {
                            ll.port(p);
                        }
                    });
            ll.handleNet();
            sc.egress(byPort.udp());
            b.step(CapabilityDomain.NETWORK_EGRESS, "landlock: TCP connect allowed only to ports " + ll.portSummary()
                    + " (on every destination, as granted)");
            b.step(CapabilityDomain.NETWORK_EGRESS, SOCKET_STEP + (byPort.udp() ? "; UDP to every destination"
                    : "; no UDP"));
            return Optional.empty();
        }
        sc.egress(false);
        b.step(CapabilityDomain.NETWORK_EGRESS, SOCKET_STEP);
        return Optional.empty();
    }

    private static Optional<String> mediated(Routes.Egress.Mediated m, LandlockSeccompPlan.Builder b, SeccompConcerns sc) {
        b.namespaces.add(Namespace.NET);
        b.relayTcpPorts.addAll(m.tcp());
        b.relayUdpPorts.addAll(m.udp());
        b.proxyPort = m.proxyPort();
        b.step(CapabilityDomain.NETWORK_EGRESS, "new network namespace: only its own loopback (TCP and UDP), no route "
                + "out");
        b.step(CapabilityDomain.NETWORK_EGRESS, "transport mediation: 127.0.0.1/[::1] port " + m.proxyPort() + " lead "
                + "to the supervisor's proxy through a relay outside the namespace (each connection carries the "
                + "session's credential); the program's proxy variables name it");
        if (!m.tcp().isEmpty() || !m.udp().isEmpty()) {
            b.step(CapabilityDomain.NETWORK_EGRESS, "relay: 127.0.0.1/[::1] " + (m.tcp().isEmpty() ? ""
                    : "TCP ports " + m.tcp()) + (m.tcp().isEmpty() || m.udp().isEmpty() ? "" : " and ")
                    + (m.udp().isEmpty() ? "" : "UDP ports " + m.udp()) + " reach the host's 127.0.0.1/[::1] on the "
                    + "same port");
        }
        sc.egress(false);
        b.step(CapabilityDomain.NETWORK_EGRESS, SOCKET_STEP);
        return Optional.empty();
    }

    private static final String SOCKET_STEP = "seccomp: only unix, netlink, TCP and UDP sockets (every other family,"
            + " type and protocol: raw, packet, SCTP, MPTCP, ICMP, ... fail with EPERM); TCP Fast Open denied; "
            + "io_uring denied";

    private Optional<String> nameResolution(ControlRequirement r, LandlockSeccompPlan.Builder b, SeccompConcerns sc,
                                            List<String> generatedEtc) {
        StringBuilder hosts = new StringBuilder("127.0.0.1\tlocalhost\n::1\tlocalhost\n");
        if (r.scope() instanceof Scope.PinnedHosts p) {
            p.hosts().forEach((name, addr) -> hosts.append(addr).append('\t').append(name).append('\n'));
        }
        b.generatedFiles.put("hosts", hosts.toString());
        b.generatedFiles.put("resolv.conf", "# aasm: no nameserver; names resolve only from the pinned hosts file\n"
                + "options attempts:1 timeout:1\n");
        b.generatedFiles.put("nsswitch.conf", NameService.filesOnly());
        generatedEtc.addAll(List.of("hosts", "resolv.conf", "nsswitch.conf"));
        sc.nameResolution();
        b.step(CapabilityDomain.NAME_RESOLUTION, "private mount namespace: generated /etc/hosts ("
                + (r.scope() instanceof Scope.PinnedHosts p ? p.hosts().size() : 0) + " pinned names), a resolv.conf "
                + "without nameservers and an nsswitch.conf whose hosts database is the file only, bound over the "
                + "host's");
        b.step(CapabilityDomain.NAME_RESOLUTION, "seccomp: UDP sockets denied outside a network namespace of the "
                + "program's own (no direct DNS queries)");
        return Optional.empty();
    }

    private Optional<String> syscall(ControlRequirement r, LandlockSeccompPlan.Builder b, SeccompConcerns sc) {
        Scope.Syscalls s = r.scope() instanceof Scope.Syscalls x ? x : new Scope.Syscalls(SyscallMode.ALLOW, List.of());
        sc.mode = Optional.of(s.mode());
        sc.names = s.names();
        sc.owner = CapabilityDomain.SYSCALL;
        b.step(CapabilityDomain.SYSCALL, "seccomp: " + s.mode().token() + " list " + s.names()
                + (s.mode() == SyscallMode.ALLOW ? " plus the startup baseline; everything else fails with EPERM"
                : "; the named calls fail with EPERM"));
        return Optional.empty();
    }

    private Optional<String> process(ControlRequirement r, LandlockSeccompPlan.Builder b, SeccompConcerns sc) {
        if (r.scope() instanceof Scope.ProcessCeiling c) {
            b.cgroupLimits.add(new LandlockSeccompPlan.CgroupLimit("pids", "pids.max", Integer.toString(c.maxProcesses())));
            b.step(CapabilityDomain.PROCESS_CREATION, "per-launch pids cgroup: pids.max=" + c.maxProcesses());
            return Optional.empty();
        }
        sc.denyProcess = true;
        b.step(CapabilityDomain.PROCESS_CREATION, "seccomp: fork/vfork/clone (without CLONE_THREAD) fail with EPERM, "
                + "clone3 with ENOSYS");
        return Optional.empty();
    }

    private Optional<String> ipc(ControlRequirement r, LandlockSeccompPlan.Builder b, Landlock ll) {
        Set<IpcChannel> granted = r.scope() instanceof Scope.IpcGrants g ? g.channels() : Set.of();
        if (!granted.contains(IpcChannel.ABSTRACT_UNIX)) {
            ll.scope(LandlockRights.SCOPE_ABSTRACT_UNIX_SOCKET);
            b.step(CapabilityDomain.IPC, "landlock scope: abstract unix sockets outside the tree unreachable");
        }
        if (!granted.contains(IpcChannel.SIGNAL)) {
            ll.scope(LandlockRights.SCOPE_SIGNAL);
            b.step(CapabilityDomain.IPC, "landlock scope: signals to processes outside the tree denied");
        }
        if (!granted.contains(IpcChannel.SYSV)) {
            b.namespaces.add(Namespace.IPC);
            b.step(CapabilityDomain.IPC, "new IPC namespace: System V objects of the host unreachable");
        }
        return Optional.empty();
    }

    private Optional<String> credential(LandlockSeccompPlan.Builder b) {
        b.namespaces.add(Namespace.PID);
        b.step(CapabilityDomain.CREDENTIAL, "environment: exactly " + b.env.keySet().size()
                + " delegated names " + b.env.keySet());
        b.step(CapabilityDomain.CREDENTIAL, "inherited descriptors sealed: only 0,1,2 kept");
        b.step(CapabilityDomain.CREDENTIAL, "new pid namespace with its own /proc (where /proc is visible): other "
                + "processes' environ unreachable; the program's pid is random in it");
        b.step(CapabilityDomain.CREDENTIAL, "seccomp baseline: the kernel keyrings (keyctl, add_key, request_key) "
                + "fail with EPERM, so the caller's keys are unreachable");
        return Optional.empty();
    }

    private Optional<String> resource(ControlRequirement r, LandlockSeccompPlan.Builder b) {
        if (!(r.scope() instanceof Scope.Limits l)) {
            return Optional.of("resource scope must be limits");
        }
        l.maxCpuSeconds().ifPresent(v -> b.rlimits.put(Rlimit.CPU, v));
        l.maxOpenFiles().ifPresent(v -> b.rlimits.put(Rlimit.NOFILE, v));
        l.maxFileSizeBytes().ifPresent(v -> b.rlimits.put(Rlimit.FSIZE, v));
        l.maxMemoryBytes().ifPresent(v -> {
            b.rlimits.put(Rlimit.AS, v);
            boolean v2 = facts.cgroups().home("memory").map(h -> h.unified()).orElse(false);
            b.cgroupLimits.add(new LandlockSeccompPlan.CgroupLimit("memory", v2 ? "memory.max" : "memory.limit_in_bytes",
                    Long.toString(v)));
        });
        l.maxProcesses().ifPresent(v -> b.cgroupLimits.add(new LandlockSeccompPlan.CgroupLimit("pids", "pids.max",
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
}
