package io.aasm.backend.container.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import io.aasm.ports.transport.TransportMediation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Chooses the mechanism for each domain and scope in a container. Pure: the same answer feeds the
 * capability reports, narrowing to one launch, and the lowering.
 */
public final class ContainerRoutes {
    private final Optional<SyscallTable> table;
    private final boolean pinnedImage;
    private final Supplier<List<String>> engineAbstractSockets;

    public ContainerRoutes(Optional<SyscallTable> table, boolean pinnedImage, Supplier<List<String>> engineAbstractSockets) {
        this.table = table;
        this.pinnedImage = pinnedImage;
        this.engineAbstractSockets = engineAbstractSockets;
    }

    public Route route(ControlRequirement r, List<ControlRequirement> all) {
        return route(r, all, TransportMediation.notRequested());
    }

    /** The same, for a launch whose transport mediation the kernel decided ({@code ExecutionSpec#transport}). */
    public Route route(ControlRequirement r, List<ControlRequirement> all, TransportMediation transport) {
        return switch (r.domain()) {
            case FILESYSTEM_READ, FILESYSTEM_WRITE -> filesystem(r.domain(), r.scope());
            case NETWORK_EGRESS -> egress(r.scope(), transport);
            case NAME_RESOLUTION -> names(r.scope(), all);
            case SYSCALL -> syscall(r.scope());
            case PROCESS_CREATION -> process(r.scope());
            case IPC -> ipc(r.scope(), all);
            case CREDENTIAL -> credential(r.scope());
            case RESOURCE -> resource(r.scope());
        };
    }

    /** The route of each domain's strictest scope, for scope-free capability reports. */
    public Route general(CapabilityDomain d) {
        Scope s = switch (d) {
            case RESOURCE -> new Scope.Limits(OptionalLong.of(1L << 30), OptionalLong.of(60), OptionalLong.of(60),
                    OptionalLong.of(256), OptionalLong.of(1L << 20), OptionalLong.of(64));
            case FILESYSTEM_READ, FILESYSTEM_WRITE -> new Scope.Paths(List.of());
            default -> new Scope.WholeDomain();
        };
        ControlRequirement r = ControlRequirement.strict(d, s);
        return route(r, d == CapabilityDomain.NAME_RESOLUTION
                ? List.of(r, ControlRequirement.strict(CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain())) : List.of(r));
    }

    static boolean stated(List<ControlRequirement> all, CapabilityDomain d) {
        return all.stream().anyMatch(x -> x.domain() == d);
    }

    private Route filesystem(CapabilityDomain d, Scope scope) {
        if (!(scope instanceof Scope.Paths) && !(scope instanceof Scope.WholeDomain)) {
            return new Route.Unsupported("scope " + scope.token() + " does not apply to the filesystem");
        }
        boolean write = d == CapabilityDomain.FILESYSTEM_WRITE;
        List<String> lim = new ArrayList<>(List.of(
                "grants are resolved when the container is created: a missing path refuses; a grant through a "
                        + "symlink binds the folder it resolves to (the plan names it) at the path as written",
                "a grant of / binds every folder of the host's root",
                "the container's /proc (its own processes), /dev (the engine's standard devices) and /sys (read-only) "
                        + "always exist; a grant there is the container's own, never the host's",
                "pathname unix sockets inside the grants can be connected to, except the container engine's own "
                        + "sockets, which are masked",
                "aasm's own install, cache and runtime directory are read-only inside the container; a write grant "
                        + "inside them refuses"));
        if (pinnedImage) {
            lim.add("the pinned image's own files are readable too (read-only): they form the container's root");
        }
        if (!write) {
            lim.add("read grants include execute (a readable program can be run)");
            lim.add("only the granted paths exist (ENOENT elsewhere); when filesystem.write is not stated the read "
                    + "grants are bound read-write (writes there are not restricted)");
        } else {
            lim.add("write grants include read of the same paths");
            lim.add("when filesystem.read is not stated the host's folders are there read-only: writes outside the "
                    + "write grants fail with EROFS");
        }
        return new Route.Supported("container view: an empty read-only image as root, granted paths bind-mounted at "
                + "the same path (" + (write ? "write grants read-write, private folders tmpfs" : "read grants read-only")
                + "), the engine's sockets masked", List.of(), lim);
    }

    private static final String NO_EGRESS = "network mode none with networking disabled: the container has its own "
            + "network namespace with only its loopback, and no route out";

    /**
     * The in-container port of the transport relay when this egress scope is mediated (grants the relay can
     * carry, and the kernel decided mediation); empty otherwise.
     */
    public static OptionalInt mediatedPort(Scope scope, TransportMediation transport) {
        return transport.mediated() && scope instanceof Scope.Egress e && !e.grants().isEmpty()
                && e.grants().stream().noneMatch(g -> g.loopbackOnly() || g.protocol() == io.aasm.ports.policy.Protocol.UDP)
                ? OptionalInt.of(transport.boundaryPort()) : OptionalInt.empty();
    }

    private Route egress(Scope scope, TransportMediation transport) {
        if (scope instanceof Scope.WholeDomain || scope instanceof Scope.Egress e && e.grants().isEmpty()) {
            return new Route.Supported(NO_EGRESS, List.of(), List.of(
                    "the container's loopback is its own: services on the host's loopback are unreachable",
                    "no raw or packet sockets (every capability is dropped)"));
        }
        if (!(scope instanceof Scope.Egress egress)) {
            return new Route.Unsupported("scope " + scope.token() + " does not apply to network egress");
        }
        Optional<EgressGrant> loopback = egress.grants().stream().filter(EgressGrant::loopbackOnly).findFirst();
        if (loopback.isPresent()) {
            return new Route.Unsupported("a loopback grant cannot be honoured in a container: its 127.0.0.1 is the "
                    + "container's own, and aasm-container relays nothing but the transport-mediation proxy; name the "
                    + "host's service by a host name pinned to its address (network.name_resolution.hosts) and grant "
                    + "that name, so the proxy dials it, or use another backend");
        }
        if (!transport.mediated()) {
            return new Route.Unsupported("an egress grant leaves a container only through transport mediation (the "
                    + "supervisor's proxy, relayed into the container's own network namespace), and this launch is not "
                    + "mediated (" + transport.detail() + "): without it the container has network mode none, which "
                    + "enforces no grant; drop --no-proxy, use another backend, or set network.egress posture: "
                    + "optional to run without the grant");
        }
        Optional<EgressGrant> udp = egress.grants().stream()
                .filter(g -> g.protocol() == io.aasm.ports.policy.Protocol.UDP).findFirst();
        if (udp.isPresent()) {
            return new Route.Unsupported("a UDP grant to '" + udp.get().host() + "' cannot be mediated: the "
                    + "supervisor's proxy carries TCP streams only (HTTP CONNECT, plain HTTP, SOCKS5 CONNECT); drop the "
                    + "grant, or set network.egress posture: optional to run without it");
        }
        int port = transport.boundaryPort();
        return new Route.Supported("transport mediation: network mode none (the container's own network namespace, "
                + "only its loopback) whose only way out is a relay listening at 127.0.0.1:" + port + " inside it, "
                + "run by the supervisor outside the container, to the supervisor's proxy", List.of(), List.of(
                "beyond its own loopback the program reaches only the supervisor's proxy at 127.0.0.1:" + port
                        + " (HTTP CONNECT, plain HTTP and SOCKS5 CONNECT); its proxy variables (HTTP_PROXY, HTTPS_PROXY, "
                        + "ALL_PROXY, lower-case forms, NO_PROXY) name it, and a program that ignores them has no route out",
                "the proxy admits a connection only to a granted destination, resolves names itself (pinned names "
                        + "first) and dials the address it resolved; a granted name that resolves to a loopback, private, "
                        + "link-local or metadata address is refused unless the policy names that address",
                "the proxy sees destinations, not content (no TLS inspection): a granted host, or a name fronting "
                        + "others on a shared CDN, can carry anything the program sends",
                "the relay listens inside the container's network namespace and connects only to this launch's "
                        + "session socket (outside the container, never bound into it), each connection starting with "
                        + "the session's credential, which the program never sees",
                "UDP reaches nothing outside the container; names resolve inside it only from the pinned hosts file",
                "one decision record per connection through the proxy; connections that bypass it fail inside the "
                        + "container (no route) and are not recorded one by one",
                "the relay is a process of the supervisor outside the container's cgroup: its memory and processes "
                        + "(two per open connection, at most 64 connections; more are reset) are not counted against "
                        + "the container's ceilings"));
    }

    private Route names(Scope scope, List<ControlRequirement> all) {
        if (!stated(all, CapabilityDomain.NETWORK_EGRESS)) {
            return new Route.Unsupported("network egress is not stated: pinned names hold only while no resolver is "
                    + "reachable, which only an egress statement guarantees; state network.egress too (for example "
                    + "allow: []) to pin names, or set name_resolution posture: optional");
        }
        if (!(scope instanceof Scope.PinnedHosts) && !(scope instanceof Scope.WholeDomain)) {
            return new Route.Unsupported("scope " + scope.token() + " does not apply to name resolution");
        }
        return new Route.Supported("generated /etc/hosts (the pinned names and localhost), a resolv.conf without "
                + "nameservers and an nsswitch.conf whose hosts database is that file only, bound read-only; " + NO_EGRESS,
                List.of(), List.of("the C library resolves names from the pinned file only; a program that speaks DNS "
                + "itself reaches no resolver (no network; with transport mediation the only way out is the proxy, "
                + "which resolves granted names itself)"));
    }

    private Route syscall(Scope scope) {
        Scope.Syscalls s = scope instanceof Scope.Syscalls x ? x
                : scope instanceof Scope.WholeDomain ? new Scope.Syscalls(SyscallMode.ALLOW, List.of()) : null;
        if (s == null) {
            return new Route.Unsupported("scope " + scope.token() + " does not apply to syscalls");
        }
        if (table.isPresent()) {
            for (String n : s.names()) {
                if (!table.get().knows(n)) {
                    return new Route.Unsupported("unknown syscall name '" + n + "' on " + table.get().arch());
                }
            }
        }
        List<String> lim = new ArrayList<>(List.of("a denied call fails with EPERM; the process is not killed",
                "always denied (hardening baseline, EPERM): " + String.join(",", SeccompProfile.HARDENING_BASELINE)
                        + "; clone with a namespace flag and ioctl TIOCSTI/TIOCLINUX (EPERM); clone3 and every call "
                        + "newer than the bundle's syscall table (ENOSYS)"));
        if (s.mode() == SyscallMode.ALLOW) {
            lim.add("always allowed so the engine's runtime can exec the program and it can start: "
                    + String.join(",", SeccompProfile.STARTUP));
        }
        return new Route.Supported("seccomp profile applied by the engine, " + s.mode().token() + " list by name",
                List.of(Need.SECCOMP, Need.SYSCALL_TABLE), lim);
    }

    private Route process(Scope scope) {
        if (scope instanceof Scope.ProcessCeiling) {
            return new Route.Supported("the engine's pids limit on the container's cgroup", List.of(Need.PIDS),
                    List.of("the ceiling counts threads as well as processes",
                            "the container's init (pid 1) is not counted: the engine's limit is the ceiling plus one"));
        }
        if (scope instanceof Scope.WholeDomain) {
            return new Route.Supported("seccomp profile denies fork/vfork and clone without CLONE_THREAD; clone3 "
                    + "fails with ENOSYS", List.of(Need.SECCOMP, Need.SYSCALL_TABLE), List.of("threads remain allowed",
                    "the program is the container's pid 1 (no init can start it): a termination signal it does not "
                            + "handle is ignored, so ending it takes SIGKILL"));
        }
        return new Route.Unsupported("scope " + scope.token() + " does not apply to process creation");
    }

    private Route ipc(Scope scope, List<ControlRequirement> all) {
        if (!(scope instanceof Scope.IpcGrants || scope instanceof Scope.WholeDomain)) {
            return new Route.Unsupported("scope " + scope.token() + " does not apply to IPC");
        }
        Set<IpcChannel> g = scope instanceof Scope.IpcGrants x ? x.channels() : Set.of();
        List<String> parts = new ArrayList<>();
        if (g.contains(IpcChannel.SIGNAL)) {
            for (CapabilityDomain d : List.of(CapabilityDomain.CREDENTIAL, CapabilityDomain.FILESYSTEM_READ,
                    CapabilityDomain.FILESYSTEM_WRITE)) {
                if (stated(all, d)) {
                    return new Route.Unsupported("signals to processes outside the container need the host's pid "
                            + "namespace, which would show every host process's /proc entries that the " + d.token()
                            + " statement relies on hiding; a container cannot grant signals with it stated");
                }
            }
            parts.add("the host's pid namespace (signals to outside processes granted)");
        } else {
            parts.add("own pid namespace: processes outside the container cannot be signalled (they are not there)");
        }
        if (g.contains(IpcChannel.ABSTRACT_UNIX)) {
            for (CapabilityDomain d : List.of(CapabilityDomain.NETWORK_EGRESS, CapabilityDomain.NAME_RESOLUTION)) {
                if (stated(all, d)) {
                    return new Route.Unsupported("abstract unix sockets belong to a network namespace: reaching the "
                            + "host's needs the host's network namespace, which the " + d.token() + " statement rules out");
                }
            }
            List<String> engine = engineAbstractSockets.get();
            if (!engine.isEmpty()) {
                return new Route.Unsupported("the container engine listens on abstract unix sockets " + engine
                        + " of the host's network namespace: granting abstract sockets would hand the program the engine");
            }
            parts.add("the host's network namespace (abstract unix sockets granted; network egress is not stated)");
        } else {
            parts.add("own network namespace: abstract unix sockets outside the container unreachable");
        }
        parts.add(g.contains(IpcChannel.SYSV) ? "the host's IPC namespace (System V granted)"
                : "own IPC namespace: the host's System V objects and POSIX message queues unreachable");
        return new Route.Supported(String.join(" + ", parts), List.of(), List.of(
                "pathname unix sockets, FIFOs and POSIX shared memory are files: with the filesystem stated, only those "
                        + "inside its grants exist (and /dev/shm is the container's own)"));
    }

    private Route credential(Scope scope) {
        if (!(scope instanceof Scope.Delegated) && !(scope instanceof Scope.WholeDomain)) {
            return new Route.Unsupported("scope " + scope.token() + " does not apply to credentials");
        }
        return new Route.Supported("environment reduced to the delegated names; the engine passes only stdio to the "
                + "program; own pid namespace (other processes' /proc entries unreachable)", List.of(), List.of(
                "the engine adds HOSTNAME (the container's host name) and, when not delegated, HOME and PATH with "
                        + "values of its own (never the caller's)",
                "secrets in files readable under granted paths are governed by the filesystem domain"));
    }

    private Route resource(Scope scope) {
        if (!(scope instanceof Scope.Limits l)) {
            return new Route.Unsupported("scope " + scope.token() + " does not apply to resources");
        }
        List<Need> needs = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        List<String> lim = new ArrayList<>();
        if (l.maxCpuSeconds().isPresent() || l.maxOpenFiles().isPresent() || l.maxFileSizeBytes().isPresent()) {
            parts.add("rlimits set by the engine (cpu, nofile, fsize)");
            lim.add("rlimits apply per process: every descendant gets its own CPU-seconds and open-files budget");
        }
        if (l.maxMemoryBytes().isPresent()) {
            needs.add(Need.MEMORY);
            parts.add("the engine's memory limit on the container's cgroup, swap limited to the same value");
            lim.add("the memory ceiling counts page cache and tmpfs pages charged to the container");
        }
        if (l.maxProcesses().isPresent()) {
            needs.add(Need.PIDS);
            parts.add("the engine's pids limit");
            lim.add("the process ceiling counts threads; the container's init is not counted");
        }
        if (l.maxWallClockSeconds().isPresent()) {
            parts.add("wall clock enforced by the supervisor removing the container");
            lim.add("the wall-clock ceiling is enforced by the supervisor after the deadline, not by the kernel");
        }
        if (lim.isEmpty()) {
            lim.add("only the stated ceilings are enforced");
        }
        return new Route.Supported(String.join(" + ", parts), needs, lim);
    }
}
