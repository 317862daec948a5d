package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.backend.landlockseccomp.internal.host.CgroupLayout;
import io.aasm.backend.landlockseccomp.internal.host.HostFacts;
import io.aasm.ports.capability.PrerequisiteStatus;
import java.util.Optional;

/** One host fact a mechanism depends on; checked against detected (or narrowed) facts. */
public enum Need {
    LANDLOCK_FS("Landlock ABI >= 1 (filesystem rules)", 1),
    LANDLOCK_TRUNCATE("Landlock ABI >= 3 (truncate and refer handled, else truncate(2) bypasses write scope)", 3),
    LANDLOCK_NET("Landlock ABI >= 4 (TCP connect rules by port)", 4),
    LANDLOCK_SCOPE("Landlock ABI >= 6 (abstract unix socket and signal scoping)", 6),
    SECCOMP("seccomp filter mode with ERRNO/KILL_PROCESS actions and libseccomp.so.2", 0),
    NAMESPACES("new namespaces (running as root, or unprivileged user namespaces enabled)", 0),
    CGROUP_PIDS("a writable pids controller (cgroup v1 or v2) for a per-launch cgroup", 0),
    CGROUP_MEMORY("a writable memory controller (cgroup v1 or v2) for a per-launch cgroup", 0);

    private final String requirement;
    private final int abi;

    Need(String requirement, int abi) {
        this.requirement = requirement;
        this.abi = abi;
    }

    public String requirement() {
        return requirement;
    }

    public PrerequisiteStatus check(HostFacts f) {
        return check(f, PathReads.DIRECT);
    }

    /** The same, the cgroup folder's mode and owner asked through {@code reads}. */
    public PrerequisiteStatus check(HostFacts f, PathReads reads) {
        return switch (this) {
            case LANDLOCK_FS, LANDLOCK_TRUNCATE, LANDLOCK_NET, LANDLOCK_SCOPE -> f.landlockAbi() >= abi
                    ? new PrerequisiteStatus.Satisfied("landlock_create_ruleset reports ABI " + f.landlockAbi())
                    : new PrerequisiteStatus.Unsatisfied("Landlock ABI " + f.landlockAbi() + " < " + abi
                    + "; run a kernel with a newer Landlock (ABI " + abi + ") and 'landlock' in the lsm= list");
            case SECCOMP -> f.seccompFilter() && f.libseccomp()
                    ? new PrerequisiteStatus.Satisfied("SECCOMP_GET_ACTION_AVAIL ok; libseccomp.so.2 loaded")
                    : new PrerequisiteStatus.Unsatisfied((f.seccompFilter() ? "" : "kernel seccomp filter mode "
                    + "unavailable (CONFIG_SECCOMP_FILTER); ") + (f.libseccomp() ? "" : "libseccomp.so.2 not "
                    + "installed (apt-get install libseccomp2)"));
            case NAMESPACES -> f.namespaces()
                    ? new PrerequisiteStatus.Satisfied(f.root() ? "euid 0" : "user namespaces enabled (max "
                    + f.maxUserNamespaces().orElse(0) + ")")
                    : new PrerequisiteStatus.Unsatisfied("euid " + f.euid() + " and unprivileged user namespaces "
                    + "are disabled; set user.max_user_namespaces > 0 (and kernel.unprivileged_userns_clone=1) "
                    + "or run as root");
            case CGROUP_PIDS -> controller(f, "pids", reads);
            case CGROUP_MEMORY -> controller(f, "memory", reads);
        };
    }

    private static boolean ownedBy(java.nio.file.Path dir, int uid, PathReads reads) {
        PathReads.Node n = reads.stat(dir);
        return n.exists() && n.uid() == uid;
    }

    private static PrerequisiteStatus controller(HostFacts f, String name, PathReads reads) {
        Optional<CgroupLayout.ControllerHome> home = f.cgroups().home(name);
        if (home.isEmpty()) {
            return new PrerequisiteStatus.Unsatisfied("no " + name + " controller on this host (layout "
                    + f.cgroups().describe() + "); enable the controller in v1 or v2");
        }
        java.nio.file.Path dir = home.get().ownDirectory();
        if (!reads.writable(dir) || !(f.root() || ownedBy(dir, f.euid(), reads))) {
            return new PrerequisiteStatus.Unsatisfied(dir + " is not writable by euid " + f.euid()
                    + "; run as root or delegate that cgroup to this user");
        }
        return new PrerequisiteStatus.Satisfied(name + " controller " + (home.get().unified() ? "v2" : "v1")
                + " at " + dir + " is writable");
    }
}
