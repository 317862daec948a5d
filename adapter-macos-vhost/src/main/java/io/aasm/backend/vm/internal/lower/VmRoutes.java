package io.aasm.backend.vm.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.EgressGrant;
import io.aasm.ports.policy.Protocol;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import io.aasm.ports.transport.TransportMediation;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Which scopes the VM boundary can hold, and how, per domain. The mechanisms are the guest's: a separate
 * kernel, host-enforced shares, and inside the guest the agent's Landlock, seccomp, cgroup and rlimits.
 */
public final class VmRoutes {
    /** A guest fact a route depends on: the tree's cgroup with the memory and pids controllers. */
    public static final String NEED_CGROUP = "the guest's cgroup v2 with the memory and pids controllers";
    static final String ALONE = "the program's tree is alone in a guest of its own: the only other process is the "
            + "agent (PID 1), which serves no socket and ignores signals";

    private final int slots;
    private final int memoryMib;
    private final int landlockAbi;

    public VmRoutes(int slots, int memoryMib, int landlockAbi) {
        this.slots = slots;
        this.memoryMib = memoryMib;
        this.landlockAbi = landlockAbi;
    }

    /** The route of the domain's strictest scope (what the backend offers in general). */
    public Route general(CapabilityDomain d) {
        Scope s = switch (d) {
            case FILESYSTEM_READ, FILESYSTEM_WRITE -> new Scope.Paths(List.of());
            case SYSCALL -> new Scope.Syscalls(SyscallMode.DENY, List.of());
            case RESOURCE -> new Scope.Limits(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                    OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty());
            default -> new Scope.WholeDomain();
        };
        return route(ControlRequirement.strict(d, s));
    }

    public Route route(ControlRequirement r) {
        return route(r, TransportMediation.notRequested());
    }

    /** {@code transport}: the kernel's decision for the launch (an egress grant needs it mediated). */
    public Route route(ControlRequirement r, TransportMediation transport) {
        Scope s = r.scope();
        return switch (r.domain()) {
            case FILESYSTEM_READ -> new Route.Supported("virtio-9p shares of the granted host folders, read-only at the "
                    + "host's 9p server (QEMU), bound into an empty read-only view in a guest kernel of its own; Landlock"
                    + " (guest ABI " + landlockAbi + ") beneath every grant", List.of(ShareLayout.DEVICE_NOTE,
                    "a grant below /proc or /sys gives the guest's own /proc or /sys (only the guest's processes)",
                    "a symlink in a share resolves in the guest's view: to a path outside the grants it leads nowhere",
                    "a grant of a single file shares its folder read-only with the host's 9p server; the view binds"
                            + " only the file",
                    "at most " + slots + " granted folders (one share slot each)"), List.of());
            case FILESYSTEM_WRITE -> new Route.Supported("read-write virtio-9p shares of the granted folders; private "
                    + "folders are fresh tmpfs in the guest; everything else in the view is read-only; Landlock (guest"
                    + " ABI " + landlockAbi + ") beneath", List.of("files are created by the host's 9p server, which runs"
                    + " as the caller's user: they belong to the caller", "a write grant of a single file cannot be "
                    + "shared (grant its folder)", "no FIFO or unix socket can be made in a share: the host's 9p server "
                    + "refuses special files (ENXIO); /dev/shm and private folders are the guest's own and can hold them", "aasm's own state is read-only inside every view; a write grant "
                    + "inside it refuses", "at most " + slots + " granted folders (one share slot each)"), List.of());
            case NETWORK_EGRESS -> egress(s, transport);
            case NAME_RESOLUTION -> new Route.Supported("generated /etc/hosts (the pinned table only), resolv.conf "
                    + "naming no server and nsswitch.conf (files only) bound into the view; the guest has no network "
                    + "device, so no resolver outside it is reachable", List.of("a program that reads another hosts "
                    + "file of a read grant sees that file"), List.of());
            case SYSCALL -> new Route.Supported("seccomp-bpf in the guest, compiled by name by the guest agent with its "
                    + "own libseccomp for the guest's architecture; a denied call fails with EPERM, a name the guest's "
                    + "architecture does not have refuses the launch before the program runs", List.of("the guest kernel "
                    + "is " + "older than the host's: calls it lacks fail with ENOSYS whatever the list says"), List.of());
            case PROCESS_CREATION -> s instanceof Scope.ProcessCeiling
                    ? new Route.Supported("pids.max of the tree's cgroup in the guest", List.of("threads count as "
                    + "processes"), List.of(NEED_CGROUP))
                    : new Route.Supported("seccomp in the guest: fork, vfork and clone without CLONE_THREAD fail with"
                    + " EPERM, clone3 with ENOSYS", List.of("threads stay possible"), List.of());
            case IPC -> new Route.Supported(ALONE + "; System V IPC, abstract unix sockets and signals are the guest "
                    + "kernel's, which holds nothing of the host's", List.of("a grant of abstract_unix, signal or sysv "
                    + "reaches nothing outside the tree either: nothing outside it exists in the guest"), List.of());
            case CREDENTIAL -> new Route.Supported("the environment is exactly the delegated names; the guest kernel has"
                    + " a process table of its own (no host process or environment exists in it); only stdio is kept",
                    List.of("the host's files a read grant shares are readable as on the host"), List.of());
            case RESOURCE -> resource(s);
        };
    }

    /** The guest's proxy port for a launch whose egress grants go through its mediation session. */
    public static OptionalInt mediatedPort(Scope scope, TransportMediation transport) {
        return transport.mediated() && scope instanceof Scope.Egress e && !e.grants().isEmpty()
                && e.grants().stream().noneMatch(g -> g.loopbackOnly() || g.protocol() == Protocol.UDP)
                ? OptionalInt.of(transport.boundaryPort()) : OptionalInt.empty();
    }

    private Route egress(Scope s, TransportMediation transport) {
        if (!(s instanceof Scope.Egress e) || e.grants().isEmpty()) {
            return new Route.Supported("the guest has no network device: only its own loopback exists, and nothing of"
                    + " the host's network is routable from it", List.of("the guest's own loopback works inside the "
                    + "tree"), List.of());
        }
        Optional<EgressGrant> loopback = e.grants().stream().filter(EgressGrant::loopbackOnly).findFirst();
        if (loopback.isPresent()) {
            return new Route.Unsupported("a loopback grant cannot be honoured in a guest: its 127.0.0.1 is the guest's"
                    + " own, and the guest reaches nothing but the transport-mediation proxy; name the host's service by"
                    + " a host name pinned to its address (network.name_resolution.hosts) and grant that name, or use "
                    + "another backend");
        }
        Optional<EgressGrant> udp = e.grants().stream().filter(g -> g.protocol() == Protocol.UDP).findFirst();
        if (udp.isPresent()) {
            return new Route.Unsupported("a UDP grant to '" + udp.get().host() + "' cannot be mediated: the proxy "
                    + "carries TCP streams only (HTTP CONNECT, plain HTTP, SOCKS5 CONNECT); drop the grant, or set "
                    + "network.egress posture: optional to run without it");
        }
        if (!transport.mediated()) {
            return new Route.Unsupported("an egress grant leaves a guest only through transport mediation (the "
                    + "supervisor's proxy, relayed over the VM's control channel), and this launch is not mediated ("
                    + transport.detail() + "): nothing else enforces a host grant in a guest; drop --no-proxy, use "
                    + "another backend, or set network.egress posture: optional to run without the grant");
        }
        int port = transport.boundaryPort();
        return new Route.Supported("transport mediation: the guest has no network device; the guest agent (PID 1) "
                + "listens on 127.0.0.1:" + port + " and [::1]:" + port + " inside the guest (made before the program,"
                + " never inherited) and carries each connection over the VM's control channel to the host, which "
                + "joins it to this launch's mediation session, preamble first", List.of(
                "beyond its own loopback the program reaches only the supervisor's proxy at 127.0.0.1:" + port
                        + " (HTTP CONNECT, plain HTTP and SOCKS5 CONNECT); its proxy variables name it, and a program "
                        + "that ignores them has no route out (the guest has no network device)",
                "the proxy admits a connection only to a granted destination, resolves names itself (pinned names "
                        + "first) and dials the address it resolved",
                "the proxy sees destinations, not content (no TLS inspection)",
                "the session's credential (preamble) is written by the host, outside the guest: the program never "
                        + "sees it",
                "UDP reaches nothing outside the guest; names resolve inside it only from the pinned hosts file",
                "at most " + io.aasm.backend.vm.internal.guest.FrameType.NET_MAX_STREAMS + " proxy connections at "
                        + "once; more are reset"), List.of());
    }

    private Route resource(Scope s) {
        boolean cgroup = s instanceof Scope.Limits l && (l.maxMemoryBytes().isPresent() || l.maxProcesses().isPresent());
        return new Route.Supported("memory: memory.max of the tree's cgroup in the guest (and the VM's own " + memoryMib
                + " MiB); processes: pids.max; CPU seconds, open files, file size: rlimits of the program in the "
                + "guest; wall clock: the host kills the VM", List.of("the VM has " + memoryMib + " MiB: no program "
                + "gets more, whatever its ceiling"), cgroup ? List.of(NEED_CGROUP) : List.of());
    }
}
