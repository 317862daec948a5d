package io.aasm.backend.vm.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.util.List;
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
                    + "shared (grant its folder)", "aasm's own state is read-only inside every view; a write grant "
                    + "inside it refuses", "at most " + slots + " granted folders (one share slot each)"), List.of());
            case NETWORK_EGRESS -> egress(s);
            case NAME_RESOLUTION -> new Route.Supported("generated /etc/hosts (the pinned table only), resolv.conf "
                    + "naming no server and nsswitch.conf (files only) bound into the view; the guest has no network "
                    + "device, so no resolver outside it is reachable", List.of("a program that reads another hosts "
                    + "file of a read grant sees that file"), List.of());
            case SYSCALL -> new Route.Supported("seccomp-bpf in the guest, compiled by name with the host's libseccomp"
                    + " (the guest is x86_64 like the host); a denied call fails with EPERM", List.of("the guest kernel "
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

    private Route egress(Scope s) {
        if (s instanceof Scope.Egress e && !e.grants().isEmpty()) {
            return new Route.Unsupported("an egress grant reaches the network only through the transport-mediation "
                    + "proxy, which this backend does not have yet: the guest has no network device");
        }
        return new Route.Supported("the guest has no network device: only its own loopback exists, and nothing of the "
                + "host's network is routable from it", List.of("the guest's own loopback works inside the tree"),
                List.of());
    }

    private Route resource(Scope s) {
        boolean cgroup = s instanceof Scope.Limits l && (l.maxMemoryBytes().isPresent() || l.maxProcesses().isPresent());
        return new Route.Supported("memory: memory.max of the tree's cgroup in the guest (and the VM's own " + memoryMib
                + " MiB); processes: pids.max; CPU seconds, open files, file size: rlimits of the program in the "
                + "guest; wall clock: the host kills the VM", List.of("the VM has " + memoryMib + " MiB: no program "
                + "gets more, whatever its ceiling"), cgroup ? List.of(NEED_CGROUP) : List.of());
    }
}
