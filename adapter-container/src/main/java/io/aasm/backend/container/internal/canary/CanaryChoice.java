package io.aasm.backend.container.internal.canary;

import static io.aasm.support.canary.CanaryPaths.realOrNearest;

import io.aasm.backend.container.internal.lower.Grant;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
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
 * read canary's file lives in aasm's own cache, left out when a grant would bind it into the view; the
 * write canary tries to create a file in a read-granted folder (bound read-only) that no write grant
 * covers. With processes stated as none the init makes them too and then becomes the program in place
 * (execve, no fork), after one more: a process-creating call the profile must refuse.
 *
 * @param syscall the denied call the SYSCALL kind makes (name and number); present exactly with that kind
 * @param writeDir the read-only folder the FS_WRITE kind tries to create a file in; present exactly with it
 * @param rlimit the ceiling the RLIMIT kind tries to raise; present exactly with it
 */
public record CanaryChoice(Set<CanaryKind> kinds, Optional<Syscall> syscall, Optional<Path> writeDir,
                           Optional<Rlimit> rlimit) {
    public CanaryChoice {
        kinds = kinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(kinds));
    }

    public CanaryChoice(Set<CanaryKind> kinds, Optional<Syscall> syscall, Optional<Path> writeDir) {
        this(kinds, syscall, writeDir, Optional.empty());
    }

    public CanaryChoice(Set<CanaryKind> kinds, Optional<Syscall> syscall) {
        this(kinds, syscall, Optional.empty());
    }

    public record Syscall(String name, int number) {
    }

    /** A hard rlimit the engine sets ({@code resource}: the kernel's RLIMIT_ number) and its value. */
    public record Rlimit(String name, int resource, long value) {
    }

    /** Calls that change nothing when every argument is -1; the SYSCALL canary calls one the profile denies. */
    static final List<String> HARMLESS = List.of("mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "chdir", "fchdir",
            "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat",
            "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate", "getdents64", "flock", "fsync",
            "fdatasync", "mknod", "mknodat", "statfs", "fstatfs", "getcwd", "uname");

    /**
     * {@code enforced}: the requirements the plan enforces (the claim, never the mechanism: a container
     * that does not hold it is what a canary is for); {@code numbers}: this architecture's syscall table.
     */
    public static Optional<CanaryChoice> choose(List<ControlRequirement> enforced, Path root,
                                                Map<String, Integer> numbers) {
        Set<CanaryKind> kinds = EnumSet.noneOf(CanaryKind.class);
        List<String> grants = new ArrayList<>();
        List<String> readGrants = new ArrayList<>();
        List<String> writeGrants = new ArrayList<>();
        Optional<Syscall> syscall = Optional.empty();
        Optional<Rlimit> rlimit = Optional.empty();
        boolean abstractUnix = false;
        boolean reads = false;
        boolean writes = false;
        for (ControlRequirement r : enforced) {
            Scope s = r.scope();
            switch (r.domain()) {
                case FILESYSTEM_READ, FILESYSTEM_WRITE -> {
                    if (s instanceof Scope.Paths p) {
                        grants.addAll(p.paths());
                        (r.domain() == CapabilityDomain.FILESYSTEM_READ ? readGrants : writeGrants).addAll(p.paths());
                    }
                    boolean stated = s instanceof Scope.Paths || s instanceof Scope.WholeDomain;
                    if (r.domain() == CapabilityDomain.FILESYSTEM_READ) {
                        reads = stated;
                    } else {
                        writes = stated;
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
                // Stated names need stated egress (ContainerRoutes): no network, so no route to a resolver.
                case NAME_RESOLUTION -> kinds.add(CanaryKind.NAMES);
                // The profile denies the kernel keyrings in every launch; they are the caller's, not namespaced.
                case CREDENTIAL -> kinds.add(CanaryKind.KEYRING);
                case RESOURCE -> {
                    rlimit = s instanceof Scope.Limits l ? rlimit(l) : Optional.empty();
                    rlimit.ifPresent(x -> kinds.add(CanaryKind.RLIMIT));
                }
                // Only "none": a ceiling is reached by creating that many processes, no refusal before the program.
                case PROCESS_CREATION -> {
                    if (!(s instanceof Scope.ProcessCeiling)) {
                        kinds.add(CanaryKind.PROCESS);
                    }
                }
                case IPC -> {
                    Set<IpcChannel> granted = s instanceof Scope.IpcGrants g ? g.channels() : Set.of();
                    abstractUnix = granted.contains(IpcChannel.ABSTRACT_UNIX);
                    if ((s instanceof Scope.IpcGrants || s instanceof Scope.WholeDomain)
                            && !granted.contains(IpcChannel.SIGNAL)) {
                        kinds.add(CanaryKind.SIGNAL);
                    }
                }
                default -> {
                }
            }
        }
        if (abstractUnix) {
            kinds.remove(CanaryKind.NAMES); // the abstract-unix grant shares the host's network namespace
        }
        if (denies(enforced, "prlimit64")) {
            kinds.remove(CanaryKind.RLIMIT); // its EPERM would be the profile's, not the missing capability's
        }
        if (reads && !covered(realOrNearest(root), grants)) {
            kinds.add(CanaryKind.FS_READ);
        }
        // Read grants are bound read-only only when reads are stated too (else they are writable).
        Optional<Path> writeDir = reads && writes ? readOnlyFolder(readGrants, writeGrants) : Optional.empty();
        writeDir.ifPresent(d -> kinds.add(CanaryKind.FS_WRITE));
        return kinds.isEmpty() ? Optional.empty() : Optional.of(new CanaryChoice(kinds, syscall, writeDir, rlimit));
    }

    /** The first stated ceiling the engine sets as a ulimit (soft = hard), with the kernel's number. */
    private static Optional<Rlimit> rlimit(Scope.Limits l) {
        if (l.maxCpuSeconds().isPresent()) {
            return Optional.of(new Rlimit("cpu", 0, l.maxCpuSeconds().getAsLong()));
        }
        if (l.maxFileSizeBytes().isPresent()) {
            return Optional.of(new Rlimit("fsize", 1, l.maxFileSizeBytes().getAsLong()));
        }
        return l.maxOpenFiles().isPresent() ? Optional.of(new Rlimit("nofile", 7, l.maxOpenFiles().getAsLong()))
                : Optional.empty();
    }

    /** Whether a deny-list syscall policy names {@code call}. */
    private static boolean denies(List<ControlRequirement> enforced, String call) {
        return enforced.stream().anyMatch(r -> r.domain() == CapabilityDomain.SYSCALL
                && r.scope() instanceof Scope.Syscalls sc && sc.mode() == SyscallMode.DENY && sc.names().contains(call));
    }

    /**
     * The most specific read-granted folder (the longest path: the policy's own rather than a system folder)
     * that no write grant covers and that holds no write grant, so it is read-only in the view. Only a grant
     * that is its own real path (the same folder inside and outside), and never the engine's own /proc,
     * /dev or /sys (its /dev is a writable tmpfs of the container's).
     */
    private static Optional<Path> readOnlyFolder(List<String> reads, List<String> writes) {
        List<String> w = writes.stream().map(x -> realOrNearest(Path.of(x))).toList();
        return reads.stream()
                .filter(x -> realOrNearest(Path.of(x)).equals(Path.of(x).toAbsolutePath().normalize().toString()))
                .map(x -> realOrNearest(Path.of(x))).filter(r -> Files.isDirectory(Path.of(r)))
                .filter(r -> Grant.engineOwn(r).isEmpty())
                .filter(r -> w.stream().noneMatch(x -> Grant.under(r, x) || Grant.under(x, r)))
                .max(java.util.Comparator.comparingInt(String::length)).map(Path::of);
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
        return grants.stream().map(g -> realOrNearest(Path.of(g)))
                .anyMatch(g -> Grant.under(real, g) || g.equals("/"));
    }
}
