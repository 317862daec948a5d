package io.aasm.backend.landlockseccomp.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import io.aasm.support.canary.HarmlessCalls;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides which canaries a lowered launch can carry. A canary is only worth running where its denial is
 * certain for a correct boundary: the file canaries live in the backend's own state folder, so they are
 * left out when a grant covers that folder (a read grant of / or of the home folder, say).
 */
final class CanaryChooser {
    private final Function<String, Optional<Integer>> numbers;

    /** {@code numbers}: the syscall number of a name on this host's architecture, if it has one. */
    CanaryChooser(Function<String, Optional<Integer>> numbers) {
        this.numbers = numbers;
    }

    Optional<Canaries> choose(List<ControlRequirement> reqs, FilesystemGrants fs, Optional<String> stateDir,
                              List<Integer> grantedTcpPorts, PathReads fsReads) {
        Set<Canaries.Kind> kinds = EnumSet.noneOf(Canaries.Kind.class);
        Optional<String> root = stateDir.map(d -> fsReads.realOrNearest(Path.of(d)));
        List<String> reads = fs.read().orElse(List.of()).stream().map(Grant::real).toList();
        List<String> writes = fs.write().orElse(List.of()).stream().map(Grant::real).toList();
        if (root.isPresent() && fs.read().isPresent() && !ViewPlanner.covered(root.get(), reads)
                && !ViewPlanner.covered(root.get(), writes)) {
            kinds.add(Canaries.Kind.FS_READ);
        }
        if (root.isPresent() && fs.write().isPresent() && !ViewPlanner.covered(root.get(), writes)) {
            kinds.add(Canaries.Kind.FS_WRITE);
        }
        Optional<Canaries.Syscall> syscall = Optional.empty();
        for (ControlRequirement r : reqs) {
            switch (r.domain()) {
                case NETWORK_EGRESS -> kinds.add(Canaries.Kind.EGRESS);
                case SYSCALL -> syscall = syscall(r.scope());
                case PROCESS_CREATION -> {
                    if (r.scope() instanceof Scope.WholeDomain) {
                        kinds.add(Canaries.Kind.PROCESS);
                    }
                }
                case IPC -> {
                    Set<IpcChannel> granted = r.scope() instanceof Scope.IpcGrants g ? g.channels() : Set.of();
                    if (!granted.contains(IpcChannel.SIGNAL)) {
                        kinds.add(Canaries.Kind.SIGNAL);
                    }
                }
                // Stated name resolution always denies UDP sockets outside a network namespace of its own.
                case NAME_RESOLUTION -> kinds.add(Canaries.Kind.NAMES);
                // Every confined launch installs the baseline filter, which denies the kernel keyrings.
                case CREDENTIAL -> kinds.add(Canaries.Kind.KEYRING);
                case RESOURCE -> {
                    // Only the rlimit ceilings have a canary; the cgroup ones are written by init, outside.
                    if (r.scope() instanceof Scope.Limits l && (l.maxCpuSeconds().isPresent()
                            || l.maxOpenFiles().isPresent() || l.maxFileSizeBytes().isPresent()
                            || l.maxMemoryBytes().isPresent())) {
                        kinds.add(Canaries.Kind.RESOURCE);
                    }
                }
                default -> {
                }
            }
        }
        syscall.ifPresent(s -> kinds.add(Canaries.Kind.SYSCALL));
        return kinds.isEmpty() ? Optional.empty() : Optional.of(new Canaries(kinds, syscall, grantedTcpPorts));
    }

    /** A denied call from the harmless list: one on the deny list, or one the allow list leaves out. */
    private Optional<Canaries.Syscall> syscall(Scope scope) {
        if (!(scope instanceof Scope.Syscalls s)) {
            return Optional.empty();
        }
        for (String name : HarmlessCalls.WHEN_INVALID) {
            boolean denied = s.mode() == SyscallMode.DENY ? s.names().contains(name) : !s.names().contains(name);
            Optional<Integer> nr = denied ? numbers.apply(name) : Optional.empty();
            if (nr.isPresent()) {
                return Optional.of(new Canaries.Syscall(name, nr.get()));
            }
        }
        return Optional.empty();
    }
}
