package io.aasm.backend.container.internal.canary;

import io.aasm.backend.container.internal.lower.Grant;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which canaries a container launch carries: one per domain the plan claims to prevent (the requirements
 * handed in are the enforced ones), and only where a correct container certainly denies the attempt. The
 * read canary's file lives in aasm's own cache, left out when a grant would bind it into the view. No
 * canary without aasm's init (processes stated as none: the program is the container's pid 1), and none
 * for writes yet (see docs/container.md, "Canaries").
 *
 * @param syscall the denied call the SYSCALL kind makes (name and number); present exactly with that kind
 */
public record CanaryChoice(Set<CanaryKind> kinds, Optional<Syscall> syscall) {
    public CanaryChoice {
        kinds = kinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(kinds));
    }

    public record Syscall(String name, int number) {
    }

    /** Calls that change nothing when every argument is -1; the SYSCALL canary calls one the profile denies. */
    static final List<String> HARMLESS = List.of("mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "chdir", "fchdir",
            "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat",
            "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate", "getdents64", "flock", "fsync",
            "fdatasync", "mknod", "mknodat", "statfs", "fstatfs", "getcwd", "uname");

    /**
     * {@code enforced}: the requirements the plan enforces (the claim, never the mechanism: a container
     * that does not hold it is what a canary is for); {@code init}: whether aasm's init runs;
     * {@code numbers}: this architecture's syscall table.
     */
    public static Optional<CanaryChoice> choose(List<ControlRequirement> enforced, boolean init, Path root,
                                                Map<String, Integer> numbers) {
        if (!init) {
            return Optional.empty();
        }
        Set<CanaryKind> kinds = EnumSet.noneOf(CanaryKind.class);
        List<String> grants = new ArrayList<>();
        Optional<Syscall> syscall = Optional.empty();
        boolean reads = false;
        for (ControlRequirement r : enforced) {
            Scope s = r.scope();
            switch (r.domain()) {
                case FILESYSTEM_READ, FILESYSTEM_WRITE -> {
                    if (s instanceof Scope.Paths p) {
                        grants.addAll(p.paths());
                    }
                    if (r.domain() == CapabilityDomain.FILESYSTEM_READ) {
                        reads = s instanceof Scope.Paths || s instanceof Scope.WholeDomain;
                    }
                }
                case NETWORK_EGRESS -> {
                    if (s instanceof Scope.WholeDomain || s instanceof Scope.Egress e && e.grants().isEmpty()) {
                        kinds.add(CanaryKind.EGRESS);
                    }
                }
                case SYSCALL -> {
                    syscall = denied(s, numbers);
                    syscall.ifPresent(x -> kinds.add(CanaryKind.SYSCALL));
                }
                case IPC -> {
                    Set<IpcChannel> granted = s instanceof Scope.IpcGrants g ? g.channels() : Set.of();
                    if ((s instanceof Scope.IpcGrants || s instanceof Scope.WholeDomain)
                            && !granted.contains(IpcChannel.SIGNAL)) {
                        kinds.add(CanaryKind.SIGNAL);
                    }
                }
                default -> {
                }
            }
        }
        if (reads && !covered(real(root), grants)) {
            kinds.add(CanaryKind.FS_READ);
        }
        return kinds.isEmpty() ? Optional.empty() : Optional.of(new CanaryChoice(kinds, syscall));
    }

    private static Optional<Syscall> denied(Scope s, Map<String, Integer> numbers) {
        if (!(s instanceof Scope.Syscalls sc)) {
            return Optional.empty();
        }
        for (String name : HARMLESS) {
            boolean denied = sc.mode() == SyscallMode.DENY ? sc.names().contains(name) : !sc.names().contains(name);
            if (denied && numbers.containsKey(name)) {
                return Optional.of(new Syscall(name, numbers.get(name)));
            }
        }
        return Optional.empty();
    }

    private static boolean covered(String real, List<String> grants) {
        return grants.stream().map(g -> real(Path.of(g))).anyMatch(g -> Grant.under(real, g) || g.equals("/"));
    }

    /** The real path of {@code p}, or of its nearest existing ancestor with the rest appended. */
    static String real(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path rest = Path.of("");
        for (Path at = abs; at != null; at = at.getParent()) {
            try {
                if (Files.exists(at)) {
                    return at.toRealPath().resolve(rest).toString();
                }
            } catch (IOException e) {
                return abs.toString();
            }
            rest = at.getFileName() == null ? rest : at.getFileName().resolve(rest);
        }
        return abs.toString();
    }
}
