package io.aasm.backend.sandlock.internal.canary;

import io.aasm.ports.backend.PlannedRequirement;
import io.aasm.ports.backend.RequirementOutcome;
import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import io.aasm.support.canary.CanaryPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Which canaries a launch carries: one per domain the plan claims to prevent (its requirement enforced),
 * and only where a correct sandlock boundary certainly denies the attempt. The file canaries live under
 * the backend's own state folder, so they are left out when a grant covers that folder; the listener's
 * port must lie outside every egress grant.
 *
 * @param syscall the denied call the SYSCALL kind makes (name and number); present exactly with that kind
 * @param grantedPorts the egress grants' port ranges, which the EGRESS canary's listener must avoid
 * @param openFiles the RLIMIT_NOFILE ceiling sandlock sets ({@code --max-open-files}); present exactly with RLIMIT
 */
public record CanaryChoice(Set<CanaryKind> kinds, Optional<Syscall> syscall, List<int[]> grantedPorts,
                           OptionalLong openFiles) {
    public CanaryChoice {
        kinds = kinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(kinds));
        grantedPorts = List.copyOf(grantedPorts);
    }

    public CanaryChoice(Set<CanaryKind> kinds, Optional<Syscall> syscall, List<int[]> grantedPorts) {
        this(kinds, syscall, grantedPorts, OptionalLong.empty());
    }

    /** The kernel's number of RLIMIT_NOFILE, the one ceiling sandlock sets as an rlimit. */
    public static final int RLIMIT_NOFILE = 7;

    public record Syscall(String name, int number) {
    }

    /** {@code root}: where the file canaries would be made; {@code arch}: the host's, in the guard's naming. */
    public static Optional<CanaryChoice> choose(List<PlannedRequirement> planned, Path root, String arch) {
        Set<CanaryKind> kinds = EnumSet.noneOf(CanaryKind.class);
        List<String> reads = new ArrayList<>();
        List<String> writes = new ArrayList<>();
        List<int[]> ports = new ArrayList<>();
        Optional<Syscall> syscall = Optional.empty();
        OptionalLong openFiles = OptionalLong.empty();
        boolean readsClaimed = false;
        boolean writesClaimed = false;
        for (PlannedRequirement pr : planned) {
            ControlRequirement r = pr.requirement();
            Scope s = r.scope();
            if (r.domain() == CapabilityDomain.FILESYSTEM_READ && s instanceof Scope.Paths p) {
                reads.addAll(p.paths());
            }
            if (r.domain() == CapabilityDomain.FILESYSTEM_WRITE && s instanceof Scope.Paths p) {
                writes.addAll(p.paths());
            }
            if (!(pr.outcome() instanceof RequirementOutcome.Enforced)) {
                continue;
            }
            switch (r.domain()) {
                case FILESYSTEM_READ -> readsClaimed = s instanceof Scope.Paths || s instanceof Scope.WholeDomain;
                case FILESYSTEM_WRITE -> writesClaimed = s instanceof Scope.Paths || s instanceof Scope.WholeDomain;
                case NETWORK_EGRESS -> {
                    if (s instanceof Scope.Egress e) {
                        e.grants().forEach(g -> ports.add(new int[] {g.portFrom(), g.portTo()}));
                        kinds.add(CanaryKind.EGRESS);
                    } else if (s instanceof Scope.WholeDomain) {
                        kinds.add(CanaryKind.EGRESS);
                    }
                }
                case SYSCALL -> {
                    syscall = denied(s, arch);
                    syscall.ifPresent(x -> kinds.add(CanaryKind.SYSCALL));
                }
                case PROCESS_CREATION -> {
                    if (s instanceof Scope.WholeDomain) {
                        kinds.add(CanaryKind.PROCESS);
                    }
                }
                case IPC -> {
                    Set<IpcChannel> granted = s instanceof Scope.IpcGrants g ? g.channels() : Set.of();
                    if ((s instanceof Scope.IpcGrants || s instanceof Scope.WholeDomain)
                            && !granted.contains(IpcChannel.SIGNAL)) {
                        kinds.add(CanaryKind.SIGNAL);
                    }
                }
                // sandlock's default blocklist denies the kernel keyrings (keyctl, add_key, request_key).
                case CREDENTIAL -> kinds.add(CanaryKind.KEYRING);
                case RESOURCE -> {
                    if (s instanceof Scope.Limits l && l.maxOpenFiles().isPresent()) {
                        openFiles = l.maxOpenFiles();
                        kinds.add(CanaryKind.RLIMIT);
                    }
                }
                default -> {
                }
            }
        }
        String real = CanaryPaths.realOrNearest(root);
        // sandlock's write grant implies read: either kind of grant covering the folder spoils the read canary
        if (readsClaimed && !covered(real, reads) && !covered(real, writes)) {
            kinds.add(CanaryKind.FS_READ);
        }
        if (writesClaimed && !covered(real, writes)) {
            kinds.add(CanaryKind.FS_WRITE);
        }
        return kinds.isEmpty() ? Optional.empty() : Optional.of(new CanaryChoice(kinds, syscall, ports, openFiles));
    }

    /** A harmless call the deny list names; an allow list cannot be lowered to sandlock at all. */
    private static Optional<Syscall> denied(Scope s, String arch) {
        if (!(s instanceof Scope.Syscalls sc) || sc.mode() != SyscallMode.DENY) {
            return Optional.empty();
        }
        for (String name : CanarySyscalls.names()) {
            Optional<Integer> nr = sc.names().contains(name) ? CanarySyscalls.number(name, arch) : Optional.empty();
            if (nr.isPresent()) {
                return Optional.of(new Syscall(name, nr.get()));
            }
        }
        return Optional.empty();
    }

    /** True when {@code port} lies in a granted range (of any protocol and host: the canary stays clear). */
    public boolean granted(int port) {
        return grantedPorts.stream().anyMatch(r -> port >= r[0] && port <= r[1]);
    }

    static boolean covered(String real, List<String> grants) {
        for (String g : grants) {
            String gr = CanaryPaths.realOrNearest(Path.of(g));
            if (real.equals(gr) || gr.equals("/") || real.startsWith(gr.endsWith("/") ? gr : gr + "/")) {
                return true;
            }
        }
        return false;
    }
}
