package io.aasm.backend.sandlock.internal.lower;

import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.IpcChannel;
import io.aasm.ports.policy.Scope;
import io.aasm.ports.policy.SyscallMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Lowers one requirement to sandlock 0.8.6 flags, per the CLI contract. A scope sandlock cannot
 * express exactly becomes {@link DomainLowering.Inexpressible}; nothing is approximated silently.
 */
public final class RequirementLowerer {
    private static final String SYSCALL_NAME = "[a-z][a-z0-9_]{0,63}";

    public DomainLowering lower(ControlRequirement r) {
        return lower(r, OwnPaths.none());
    }

    /** {@code own}: aasm's own paths, which no write grant may cover or lie inside. */
    public DomainLowering lower(ControlRequirement r, OwnPaths own) {
        Scope s = r.scope();
        return switch (r.domain()) {
            case FILESYSTEM_READ -> paths(s, "--fs-read", "read+execute beneath", OwnPaths.none());
            case FILESYSTEM_WRITE -> paths(s, "--fs-write", "read+write+create+remove beneath", own);
            case NETWORK_EGRESS -> EgressLowering.lower(s);
            case NAME_RESOLUTION -> new DomainLowering.Inexpressible("sandlock 0.8.6 has no flag that installs a given"
                    + " host table: it pins only the host names that appear in --net-allow rules (resolved once at"
                    + " start into a synthetic /etc/hosts) and does not mediate DNS queries to a resolver that the"
                    + " egress rules allow");
            case SYSCALL -> syscalls(s);
            case PROCESS_CREATION -> process(s);
            case IPC -> ipc(s);
            case CREDENTIAL -> credential(s);
            case RESOURCE -> ResourceLowering.lower(s);
        };
    }

    /**
     * Each grant is handed to sandlock as the real path it resolves to now (sandlock would follow a symlink
     * itself, confining to a target the report never named). A write grant through a symlink root does not
     * own is refused: a program of that user could have planted it. Write statements always add /dev/null
     * (a sink that reads as empty), as aasm-native's standard devices do, so `2>/dev/null` works.
     */
    private static DomainLowering paths(Scope s, String flag, String meaning, OwnPaths own) {
        boolean write = flag.equals("--fs-write");
        List<String> flags = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        if (s instanceof Scope.WholeDomain) {
            steps.add("no " + flag + " grant: sandlock's filesystem default is deny-all");
        } else if (s instanceof Scope.Paths p) {
            for (String path : p.paths()) {
                if (path.indexOf('\0') >= 0 || path.indexOf('\n') >= 0) {
                    return new DomainLowering.Inexpressible("path grant contains a NUL or newline character");
                }
                Grant g;
                try {
                    g = Grant.resolve(path);
                } catch (java.io.IOException e) {
                    return new DomainLowering.Inexpressible("grant " + path + " cannot be resolved: " + e.getMessage());
                }
                if (write && g.plantable().isPresent()) {
                    Grant.Link l = g.plantable().get();
                    return new DomainLowering.Inexpressible("write grant " + path + " resolves through the symlink "
                            + l.path() + " (owned by uid " + l.ownerUid() + ", not root), which a program could have"
                            + " planted; grant the real path " + g.real() + " instead");
                }
                java.util.Optional<String> overlap = write ? own.overlap(g) : java.util.Optional.empty();
                if (overlap.isPresent()) {
                    return new DomainLowering.Inexpressible(overlap.get());
                }
                flags.add(flag + "=" + g.real());
                steps.add(flag + "=" + g.real() + " (Landlock " + meaning + " " + g.real() + ")" + (g.redirected()
                        ? "; granted as " + path + ", which resolves through a symlink to " + g.real() : ""));
            }
        } else {
            return mismatch(s);
        }
        if (write && !flags.contains("--fs-write=/dev/null")) {
            flags.add("--fs-write=/dev/null");
            steps.add("--fs-write=/dev/null (implicit: a sink that reads as empty, so `2>/dev/null` and shell"
                    + " background jobs work)");
        }
        return new DomainLowering.Flags(flags, steps);
    }

    private static DomainLowering syscalls(Scope s) {
        if (s instanceof Scope.Syscalls sc && sc.mode() == SyscallMode.DENY) {
            List<String> flags = new ArrayList<>();
            for (String n : sc.names()) {
                if (!n.matches(SYSCALL_NAME)) {
                    return new DomainLowering.Inexpressible("'" + n + "' is not a syscall name");
                }
                flags.add("--extra-deny-syscall=" + n);
            }
            return new DomainLowering.Flags(flags, flags.stream().map(f -> f + " (seccomp-bpf EPERM, added to"
                    + " sandlock's default blocklist)").toList());
        }
        if (s instanceof Scope.Syscalls || s instanceof Scope.WholeDomain) {
            return new DomainLowering.Inexpressible("sandlock 0.8.6 takes only deny lists (--extra-deny-syscall, on"
                    + " top of its default blocklist); an allow list would need its complement, which is unbounded"
                    + " and changes with every kernel");
        }
        return mismatch(s);
    }

    private static DomainLowering process(Scope s) {
        int max;
        if (s instanceof Scope.ProcessCeiling c) {
            max = c.maxProcesses();
        } else if (s instanceof Scope.WholeDomain) {
            max = 1; // the program itself is the one process; every fork/clone gets EAGAIN
        } else {
            return mismatch(s);
        }
        return new DomainLowering.Flags(List.of("--max-processes=" + max), List.of("--max-processes=" + max
                + " (supervisor: peak concurrent processes; fork beyond it fails with EAGAIN)"));
    }

    /**
     * Sandlock scopes signals and abstract unix sockets to the sandbox (Landlock ABI 6) and blocks System V
     * IPC (seccomp) by default; a granted channel is opened with exactly its own flag, the others stay scoped.
     */
    private static DomainLowering ipc(Scope s) {
        if (!(s instanceof Scope.IpcGrants || s instanceof Scope.WholeDomain)) {
            return mismatch(s);
        }
        java.util.Set<IpcChannel> granted = s instanceof Scope.IpcGrants g ? g.channels() : java.util.Set.of();
        List<String> flags = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        for (IpcChannel c : IpcChannel.values()) {
            String flag = switch (c) {
                case SIGNAL -> "--disable=signal-scope";
                case ABSTRACT_UNIX -> "--disable=abstract-unix-socket-scope";
                case SYSV -> "--extra-allow-syscall=sysv_ipc";
            };
            String what = switch (c) {
                case SIGNAL -> "signals to processes outside the sandbox";
                case ABSTRACT_UNIX -> "abstract unix sockets outside the sandbox";
                case SYSV -> "System V IPC syscalls";
            };
            if (granted.contains(c)) {
                flags.add(flag);
                steps.add(flag + " (granted: " + what + " allowed)");
            } else {
                steps.add("sandlock default: " + what + (c == IpcChannel.SYSV ? " blocked (seccomp, EPERM)"
                        : " denied (Landlock scope, EPERM)"));
            }
        }
        return new DomainLowering.Flags(flags, steps);
    }

    private static DomainLowering credential(Scope s) {
        if (s instanceof Scope.Delegated || s instanceof Scope.WholeDomain) {
            // The environment itself is handled by the launcher: sandlock is started with exactly the delegated
            // names and passes them on; values never appear on its command line.
            return new DomainLowering.Flags(List.of(), List.of("sandlock started with an environment holding only the"
                    + " delegated names (values never on its command line); --clean-env when nothing is delegated"));
        }
        return mismatch(s);
    }

    static DomainLowering mismatch(Scope s) {
        return new DomainLowering.Inexpressible("scope '" + s.token() + "' does not apply to this domain");
    }
}
