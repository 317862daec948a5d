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
        Scope s = r.scope();
        return switch (r.domain()) {
            case FILESYSTEM_READ -> paths(s, "--fs-read", "read+execute beneath");
            case FILESYSTEM_WRITE -> paths(s, "--fs-write", "read+write+create+remove beneath");
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

    private static DomainLowering paths(Scope s, String flag, String meaning) {
        if (s instanceof Scope.WholeDomain) {
            return new DomainLowering.Flags(List.of(), List.of("no " + flag + " grant: sandlock's filesystem default"
                    + " is deny-all"));
        }
        if (!(s instanceof Scope.Paths p)) {
            return mismatch(s);
        }
        List<String> flags = new ArrayList<>();
        List<String> steps = new ArrayList<>();
        for (String path : p.paths()) {
            if (path.indexOf('\0') >= 0 || path.indexOf('\n') >= 0) {
                return new DomainLowering.Inexpressible("path grant contains a NUL or newline character");
            }
            flags.add(flag + "=" + path);
            steps.add(flag + "=" + path + " (Landlock " + meaning + " " + path + ")");
        }
        if (flag.equals("--fs-write") && !p.paths().contains("/dev/null")) {
            steps.add("note: /dev/null is not writable unless granted (sandlock grants no device implicitly);"
                    + " `2>/dev/null` and shell background jobs fail with EACCES");
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
