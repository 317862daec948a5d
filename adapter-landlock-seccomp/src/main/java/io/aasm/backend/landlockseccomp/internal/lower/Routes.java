package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.backend.landlockseccomp.internal.seccomp.SyscallFilters;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import io.aasm.ports.transport.TransportMediation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Chooses the mechanism for each domain and scope on a given host. Pure: the same answer feeds
 * capability reports, negotiation-time narrowing and the actual lowering.
 */
public final class Routes {
    /** Largest TCP port range we expand into individual Landlock port rules. */
    public static final int MAX_PORT_RULES = 1024;

    private final HostFacts facts;
    private final Predicate<String> knownSyscall;

    public Routes(HostFacts facts, Predicate<String> knownSyscall) {
        this.facts = facts;
        this.knownSyscall = knownSyscall;
    }

    /** The route for a requirement, given every requirement of the launch (some domains interact). */
    public Route route(ControlRequirement r, List<ControlRequirement> all) {
        return route(r, all, TransportMediation.notRequested());
    }

    /** The same, for a launch whose transport mediation the kernel decided ({@code ExecutionSpec#transport}). */
    public Route route(ControlRequirement r, List<ControlRequirement> all, TransportMediation transport) {
        return switch (r.domain()) {
            case FILESYSTEM_READ -> filesystem(false);
            case FILESYSTEM_WRITE -> filesystem(true);
            case NETWORK_EGRESS -> network(r.scope(), transport);
            case NAME_RESOLUTION -> nameResolution(all);
            case SYSCALL -> syscall(r.scope());
            case PROCESS_CREATION -> process(r.scope());
            case IPC -> ipc(r.scope());
            case CREDENTIAL -> credential();
            case RESOURCE -> resource(r.scope());
        };
    }

    /** The route shown in scope-free capability reports (the strictest scope of the domain). */
    public Route general(CapabilityDomain d) {
        Scope s = switch (d) {
            case RESOURCE -> new Scope.Limits(java.util.OptionalLong.of(1L << 30), java.util.OptionalLong.of(60),
                    java.util.OptionalLong.of(60), java.util.OptionalLong.of(256), java.util.OptionalLong.of(1L << 20),
                    java.util.OptionalLong.of(64));
            default -> new Scope.WholeDomain();
        };
        ControlRequirement r = ControlRequirement.strict(d, s);
        // name resolution is pinned only with egress stated: its strictest form comes with egress denied
        return route(r, d == CapabilityDomain.NAME_RESOLUTION ? List.of(r, ControlRequirement.strict(
                CapabilityDomain.NETWORK_EGRESS, new Scope.WholeDomain())) : List.of(r));
    }

    private Route filesystem(boolean write) {
        List<String> lim = new ArrayList<>(List.of(
                "grants are resolved when the boundary is installed: a missing path refuses; a grant that resolves "
                        + "through a symlink is granted as the path it resolves to (the plan names it), and a write "
                        + "grant through a symlink not owned by root refuses",
                "a grant of / grants the whole filesystem",
                "descriptors opened before the boundary and kept are not re-checked (all but stdio are closed)",
                "io_uring is denied while the filesystem is confined",
                "implicit grants: only the standard device set (" + String.join(", ", ViewPlanner.DEVICES)
                        + ", a private /dev/pts, /dev/ptmx and /dev/shm) and, with name resolution stated, the "
                        + "generated /etc/hosts, /etc/resolv.conf and /etc/nsswitch.conf; the program's own "
                        + "executable and libraries need grants; the view's folders can be listed (with reads "
                        + "granted, they hold only the granted paths and the folders leading to them)",
                "pathname unix sockets inside the grants can be connected to (Landlock ABI <= 7 does not check "
                        + "connect)",
                "aasm's own install, cache and runtime directory are read-only inside the boundary; a write grant "
                        + "inside them refuses"));
        if (!write) {
            lim.add("read grants include execute (a readable program can be run)");
            lim.add("only the granted paths exist (ENOENT elsewhere), so nothing outside them can be read, watched "
                    + "or connected to; when filesystem.write is not stated the read grants are mounted read-write "
                    + "(writes there are not restricted) and writing anywhere else fails with ENOENT");
        } else {
            lim.add("write grants include read of the same paths");
            lim.add("when filesystem.read is not stated (reads unrestricted) the host's tree is there read-only: "
                    + "writes and metadata changes outside the write grants fail with EROFS or EACCES, and the "
                    + "host's pathname unix sockets can still be connected to");
        }
        if (facts.landlockAbi() < 5) {
            lim.add("ioctl on device files is not handled below Landlock ABI 5");
        }
        String rights = write ? LandlockRights.describeFs(LandlockRights.write(facts.landlockAbi()))
                : LandlockRights.describeFs(LandlockRights.READ);
        return new Route.Supported("filesystem view (private mount namespace: only granted paths exist, read "
                + "grants mounted read-only, write grants read-write) + landlock ABI " + facts.landlockAbi() + " ("
                + rights + ") beneath granted paths",
                List.of(write ? Need.LANDLOCK_TRUNCATE : Need.LANDLOCK_FS, Need.NAMESPACES), lim);
    }

    private static final String SOCKETS = "seccomp allows only unix, netlink, TCP and UDP sockets (raw, packet, "
            + "SCTP, MPTCP, ICMP and every other family, type or protocol fail with EPERM), denies TCP Fast Open and "
            + "io_uring";

    /**
     * How egress is confined for one scope on this host. Decided here only: {@link #network} describes the
     * choice and {@link Lowerer} installs it.
     */
    public sealed interface Egress {
        /** A network namespace of the program's own: its loopback only, no route out. */
        record OwnLoopback() implements Egress {
        }

        /** A network namespace whose loopback ports are relayed to the host's loopback, port by port. */
        record Relayed(List<Integer> tcp, List<Integer> udp) implements Egress {
        }

        /**
         * Transport mediation: a network namespace whose only way beyond this host's loopback is the relay to the
         * supervisor's proxy on {@code proxyPort}; loopback grants are relayed port by port as in {@link Relayed}.
         */
        record Mediated(List<Integer> tcp, List<Integer> udp, int proxyPort) implements Egress {
        }

        /** Landlock TCP connect by port on every destination; UDP everywhere when granted, else none. */
        record ByPort(boolean udp) implements Egress {
        }

        /** No namespaces on this host: Landlock denies TCP connect on every port, UDP is denied. */
        record NoConnect() implements Egress {
        }

        record Inexpressible(String reason) implements Egress {
        }
    }

    public Egress egress(Scope scope) {
        return egress(scope, TransportMediation.notRequested());
    }

    public Egress egress(Scope scope, TransportMediation transport) {
        if (transport.mediated() && scope instanceof Scope.Egress e && !e.grants().isEmpty()) {
            return mediated(e.grants(), transport.boundaryPort());
        }
        if (scope instanceof Scope.WholeDomain || scope instanceof Scope.Egress e && e.grants().isEmpty()) {
            return facts.namespaces() ? new Egress.OwnLoopback() : new Egress.NoConnect();
        }
        if (!(scope instanceof Scope.Egress egress)) {
            return new Egress.Inexpressible("scope " + scope.token() + " does not apply to network egress");
        }
        if (EgressCoverage.loopbackOnly(egress.grants()) && facts.namespaces()) {
            Optional<List<Integer>> tcp = EgressCoverage.relayPorts(egress.grants(), Protocol.TCP);
            Optional<List<Integer>> udp = EgressCoverage.relayPorts(egress.grants(), Protocol.UDP);
            if (tcp.isEmpty() || udp.isEmpty()) {
                return new Egress.Inexpressible("loopback grants are relayed port by port out of a network namespace, "
                        + "at most " + EgressCoverage.MAX_RELAY_PORTS + " ports per protocol (1-65535); list the ports "
                        + "the program needs, or set network.egress posture: optional to run without this guarantee");
            }
            return new Egress.Relayed(tcp.get(), udp.get());
        }
        Optional<String> inexact = EgressCoverage.inexact(egress.grants(), MAX_PORT_RULES);
        if (inexact.isPresent()) {
            return new Egress.Inexpressible(inexact.get());
        }
        return new Egress.ByPort(egress.grants().stream().anyMatch(g -> g.protocol() == Protocol.UDP));
    }

    private Egress mediated(List<EgressGrant> grants, int proxyPort) {
        if (!facts.namespaces()) {
            return new Egress.Inexpressible("transport mediation needs a network namespace of the program's own, which "
                    + "this host does not allow (" + Need.NAMESPACES.requirement() + "); switch transport mediation off"
                    + " for this launch to use the egress routes that need none");
        }
        Optional<EgressGrant> udp = grants.stream().filter(g -> g.protocol() == Protocol.UDP && !g.loopbackOnly())
                .findFirst();
        if (udp.isPresent()) {
            return new Egress.Inexpressible("a UDP grant to '" + udp.get().host() + "' cannot be mediated: the "
                    + "supervisor's proxy carries TCP streams only (HTTP CONNECT, plain HTTP, SOCKS5 CONNECT); drop "
                    + "the grant, or set network.egress posture: optional to run without it");
        }
        List<EgressGrant> loopback = grants.stream().filter(EgressGrant::loopbackOnly).toList();
        Optional<List<Integer>> tcp = EgressCoverage.relayPorts(loopback, Protocol.TCP);
        Optional<List<Integer>> udpPorts = EgressCoverage.relayPorts(loopback, Protocol.UDP);
        if (tcp.isEmpty() || udpPorts.isEmpty() || tcp.get().contains(proxyPort)) {
            return new Egress.Inexpressible("loopback grants next to mediated ones are relayed port by port, at most "
                    + EgressCoverage.MAX_RELAY_PORTS + " ports per protocol (1-65535), none of them the proxy's port "
                    + proxyPort + "; list the ports the program needs");
        }
        return new Egress.Mediated(tcp.get(), udpPorts.get(), proxyPort);
    }

    private Route network(Scope scope, TransportMediation transport) {
        Egress choice = egress(scope, transport);
        if (choice instanceof Egress.Mediated m) {
            return mediatedRoute(m);
        }
        if (choice instanceof Egress.OwnLoopback) {
            return new Route.Supported("new network namespace (only its own loopback, TCP and UDP) + " + SOCKETS,
                    List.of(Need.NAMESPACES, Need.SECCOMP),
                    List.of("the program's loopback is its own: services on the host's loopback are unreachable"));
        }
        if (choice instanceof Egress.NoConnect) {
            return new Route.Supported("landlock TCP connect denied on every port + " + SOCKETS + " (no UDP)",
                    List.of(Need.LANDLOCK_NET, Need.SECCOMP),
                    List.of("UDP is denied altogether without a network namespace of the program's own"));
        }
        if (choice instanceof Egress.Inexpressible i) {
            return new Route.Unsupported(i.reason());
        }
        if (choice instanceof Egress.Relayed) {
            return relay();
        }
        boolean udp = ((Egress.ByPort) choice).udp();
        List<String> lim = new ArrayList<>(List.of(
                "a TCP port grant covers every destination (0.0.0.0/0 and ::/0): Landlock matches ports, not hosts",
                "listening (bind) is not restricted"));
        if (udp) {
            lim.add("the UDP grant allows UDP to every host and port (seccomp cannot see destinations)");
        }
        return new Route.Supported("landlock TCP connect by port (every destination) + " + SOCKETS
                + (udp ? "" : " (no UDP)"), List.of(Need.LANDLOCK_NET, Need.SECCOMP), lim);
    }

    /** Loopback ports only: a new network namespace whose loopback ports are relayed to the host's. */
    private static Route relay() {
        return new Route.Supported("new network namespace (only its own loopback, TCP and UDP) + a relay outside it "
                + "carrying 127.0.0.1/[::1] port N to the host's 127.0.0.1/[::1] port N for the granted TCP and UDP "
                + "ports (for loopback TCP grants alone, by default: the program's connect() to them answered with a "
                + "socket of the host's loopback the relay connected, LoopbackPath) + " + SOCKETS,
                List.of(Need.NAMESPACES, Need.SECCOMP), List.of(
                "the granted services see connections from the relay (a process of the supervisor's user outside "
                        + "the boundary), not from the program's own address and port; with the connect() answered "
                        + "by an injected socket they see the program's own socket on the host's loopback",
                "with the connect() answered by an injected socket, every connect() of the program waits for the "
                        + "relay's decision; a socket bound or given TCP_FASTOPEN_CONNECT before connect keeps the "
                        + "relay, and options beyond those PROTOCOL.md lists are not carried over",
                "only 127.0.0.1 and ::1 on the granted ports reach the host (::1 only where the new namespace has "
                        + "IPv6); every other destination, including 127.0.0.2 and the host's other addresses, is "
                        + "unroutable",
                "at most " + EgressCoverage.MAX_RELAY_PORTS + " relayed connections at a time; more are reset",
                "a granted UDP port reaches the host's service from the relay, one flow per client address (at most "
                        + "64 at a time, idle ones dropped after 60 s); other UDP stays on the namespace's own loopback; "
                        + "listening inside the namespace is invisible outside it"));
    }

    /** Transport mediation: the program's namespace leads out only through the supervisor's proxy. */
    private static Route mediatedRoute(Egress.Mediated m) {
        List<String> lim = new ArrayList<>(List.of(
                "beyond this host's loopback the program reaches only the supervisor's proxy at 127.0.0.1:"
                        + m.proxyPort() + " (and [::1] where the namespace has IPv6): HTTP CONNECT, plain HTTP and "
                        + "SOCKS5 CONNECT; its proxy variables (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, lower-case forms, "
                        + "NO_PROXY) name it, and a program that ignores them has no route out",
                "the proxy admits a connection only to a granted destination, resolves names itself (pinned names "
                        + "first) and dials the address it resolved; a granted name that resolves to a loopback, private, "
                        + "link-local or metadata address is refused unless the policy names that address",
                "the proxy sees destinations, not content (no TLS inspection): a granted host, or a name fronting "
                        + "others on a shared CDN, can carry anything the program sends",
                "UDP leaves the namespace only for granted loopback ports; names resolve inside it only from the "
                        + "pinned hosts file",
                "one decision record per connection through the proxy; connections that bypass it fail inside the "
                        + "namespace and are not recorded one by one",
                "at most " + EgressCoverage.MAX_RELAY_PORTS + " relayed connections at a time; more are reset"));
        if (!m.tcp().isEmpty() || !m.udp().isEmpty()) {
            lim.add("granted loopback ports " + m.tcp() + (m.udp().isEmpty() ? "" : " (UDP " + m.udp() + ")")
                    + " reach the host's loopback directly through the relay, not through the proxy");
        }
        return new Route.Supported("transport mediation: new network namespace (only its own loopback) whose only way "
                + "beyond this host's loopback is a relay to the supervisor's proxy at 127.0.0.1:" + m.proxyPort()
                + " + " + SOCKETS, List.of(Need.NAMESPACES, Need.SECCOMP), lim);
    }

    /** Ports a resolver answers on directly: DNS over TCP, DNS over TLS. */
    private static final List<Integer> RESOLVER_PORTS = List.of(53, 853);

    /**
     * Pinning the C library's answers holds only if the program cannot ask a resolver itself: that needs an
     * egress statement that reaches no resolver port (UDP or TCP 53/853) anywhere.
     */
    private Route nameResolution(List<ControlRequirement> all) {
        Optional<ControlRequirement> egress = all.stream()
                .filter(r -> r.domain() == CapabilityDomain.NETWORK_EGRESS).findFirst();
        if (egress.isEmpty()) {
            return new Route.Unsupported("network egress is not stated, so the program can reach any resolver "
                    + "itself (DNS over UDP or TCP to a server of its choosing); state network.egress too (for "
                    + "example allow: []) to pin names, or set name_resolution posture: optional");
        }
        if (egress.get().scope() instanceof Scope.Egress e) {
            if (e.grants().stream().anyMatch(g -> g.protocol() == Protocol.UDP)) {
                return new Route.Unsupported("network egress grants UDP, so the program could query any resolver "
                        + "directly; name resolution cannot be pinned with a UDP egress grant");
            }
            Optional<Integer> port = RESOLVER_PORTS.stream().filter(p -> e.grants().stream()
                    .anyMatch(g -> g.portFrom() <= p && p <= g.portTo())).findFirst();
            if (port.isPresent()) {
                return new Route.Unsupported("network egress grants TCP port " + port.get() + ", where a resolver "
                        + "answers directly; name resolution cannot be pinned while a resolver port is reachable");
            }
        }
        return new Route.Supported("private mount namespace with a generated /etc/hosts, a resolv.conf without "
                + "nameservers and an nsswitch.conf whose hosts database is that file only, bound over the host's + "
                + "seccomp denies UDP sockets outside a network namespace of the program's own",
                List.of(Need.NAMESPACES, Need.SECCOMP),
                List.of("the C library resolves names from the pinned file only (whatever RES_OPTIONS or resolv.conf "
                        + "say); only with network egress stated, reaching no UDP and no TCP port 53 or 853",
                        "a program that speaks DNS itself over HTTPS to a server its egress grants reach is governed "
                        + "by the network egress domain",
                        "UDP sockets are denied to the program unless it has a network namespace of its own"));
    }

    private Route syscall(Scope scope) {
        if (!(scope instanceof Scope.Syscalls s)) {
            if (scope instanceof Scope.WholeDomain) {
                return syscall(new Scope.Syscalls(SyscallMode.ALLOW, List.of()));
            }
            return new Route.Unsupported("scope " + scope.token() + " does not apply to syscalls");
        }
        for (String n : s.names()) {
            if (!knownSyscall.test(n)) {
                return new Route.Unsupported("unknown syscall name '" + n + "' on " + facts.osArch());
            }
        }
        List<String> lim = new ArrayList<>();
        lim.add("a denied call fails with EPERM; the process is not killed");
        lim.add("always denied (hardening baseline, EPERM): " + String.join(",", SyscallFilters.HARDENING_BASELINE)
                + "; clone with a namespace flag and ioctl TIOCSTI/TIOCLINUX (EPERM); clone3 and every syscall "
                + "number this filter does not know, i.e. a newer kernel's (ENOSYS)");
        if (s.mode() == SyscallMode.ALLOW) {
            lim.add("always allowed so the program can start and exit: "
                    + String.join(",", SyscallFilters.STARTUP_BASELINE));
        }
        return new Route.Supported("seccomp-bpf (libseccomp), " + s.mode().token() + " list by name",
                List.of(Need.SECCOMP), lim);
    }

    private Route process(Scope scope) {
        if (scope instanceof Scope.ProcessCeiling) {
            return new Route.Supported("per-launch cgroup with pids.max (" + controllerKind("pids") + ")",
                    List.of(Need.CGROUP_PIDS), List.of("the ceiling counts threads as well as processes"));
        }
        if (scope instanceof Scope.WholeDomain) {
            return new Route.Supported("seccomp denies fork/vfork and clone without CLONE_THREAD; clone3 fails with "
                    + "ENOSYS", List.of(Need.SECCOMP), List.of("threads remain allowed"));
        }
        return new Route.Unsupported("scope " + scope.token() + " does not apply to process creation");
    }

    private String controllerKind(String c) {
        return facts.cgroups().home(c).map(h -> h.unified() ? "cgroup v2" : "cgroup v1").orElse("no controller");
    }

    private Route ipc(Scope scope) {
        java.util.Set<IpcChannel> granted = scope instanceof Scope.IpcGrants g ? g.channels() : java.util.Set.of();
        if (!(scope instanceof Scope.IpcGrants || scope instanceof Scope.WholeDomain)) {
            return new Route.Unsupported("scope " + scope.token() + " does not apply to IPC");
        }
        List<Need> needs = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        if (!granted.contains(IpcChannel.ABSTRACT_UNIX) || !granted.contains(IpcChannel.SIGNAL)) {
            needs.add(Need.LANDLOCK_SCOPE);
            List<String> scoped = new ArrayList<>();
            if (!granted.contains(IpcChannel.ABSTRACT_UNIX)) {
                scoped.add("abstract unix sockets");
            }
            if (!granted.contains(IpcChannel.SIGNAL)) {
                scoped.add("signals");
            }
            parts.add("landlock scoping of " + String.join(" and ", scoped) + " to the tree");
        }
        if (!granted.contains(IpcChannel.SYSV)) {
            needs.add(Need.NAMESPACES);
            parts.add("new IPC namespace (System V)");
        }
        if (parts.isEmpty()) {
            parts.add("nothing to scope (every channel granted)");
        }
        return new Route.Supported(String.join(" + ", parts), needs, List.of(
                "pathname unix sockets, FIFOs and POSIX shared memory are files: with the filesystem stated, only "
                        + "those inside its grants exist for the program (and /dev/shm is its own), and a pathname "
                        + "socket inside the grants can be connected to; without a filesystem statement every one of "
                        + "the host's is reachable"));
    }

    private Route credential() {
        return new Route.Supported("environment reduced to delegated names; inherited descriptors sealed (only stdio "
                + "kept); new pid namespace with its own /proc (and a random pid for the program)",
                List.of(Need.NAMESPACES),
                List.of("secrets in files readable under granted paths are governed by the filesystem domain"));
    }

    private Route resource(Scope scope) {
        if (!(scope instanceof Scope.Limits l)) {
            return new Route.Unsupported("scope " + scope.token() + " does not apply to resources");
        }
        List<Need> needs = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        List<String> lim = new ArrayList<>();
        if (l.maxCpuSeconds().isPresent() || l.maxOpenFiles().isPresent() || l.maxFileSizeBytes().isPresent()) {
            parts.add("rlimits (CPU, NOFILE, FSIZE)");
            lim.add("rlimits apply per process: every descendant gets its own CPU-seconds and open-files budget");
        }
        if (l.maxMemoryBytes().isPresent()) {
            needs.add(Need.CGROUP_MEMORY);
            parts.add("memory controller (" + controllerKind("memory") + ") + RLIMIT_AS");
            lim.add("the memory ceiling counts page cache charged to the group");
            lim.add("RLIMIT_AS caps each process's virtual address space at the same value: programs reserving large "
                    + "virtual ranges (JVMs, Go) may fail below the ceiling");
        }
        if (l.maxProcesses().isPresent()) {
            needs.add(Need.CGROUP_PIDS);
            parts.add("pids controller (" + controllerKind("pids") + ")");
        }
        if (l.maxWallClockSeconds().isPresent()) {
            parts.add("wall clock enforced by the supervisor killing the whole tree");
            lim.add("the wall-clock ceiling is enforced by the supervisor after the deadline, not by the kernel");
        }
        if (lim.isEmpty()) {
            lim.add("only the stated ceilings are enforced");
        }
        return new Route.Supported(String.join(" + ", parts), needs, lim);
    }
}
