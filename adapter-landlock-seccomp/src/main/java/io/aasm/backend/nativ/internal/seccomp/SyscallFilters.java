package io.aasm.backend.nativ.internal.seccomp;

import io.aasm.backend.nativ.internal.seccomp.FilterSpec.ArgCmp;
import io.aasm.backend.nativ.internal.seccomp.FilterSpec.Rule;
import io.aasm.ports.policy.SyscallMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Builds the single seccomp program of a launch from independent concerns (policy list, hardening,
 * socket families, io_uring, process creation). The launcher installs one program, so the concerns are
 * merged here with "deny wins": in allow-list mode a denied name is simply never allowed, and calls
 * that are allowed only for some arguments (socket, clone) get argument-filtered ALLOW rules.
 */
public final class SyscallFilters {
    /**
     * Allowed in allow-list mode whatever the policy says: without them the program cannot be
     * exec'd, its dynamic loader cannot map libraries, and it cannot exit. Reported as a limitation.
     */
    public static final List<String> STARTUP_BASELINE = List.of(
            "execve", "brk", "mmap", "munmap", "mprotect", "arch_prctl", "set_tid_address", "set_robust_list",
            "rseq", "prlimit64", "openat", "close", "read", "pread64", "newfstatat", "fstat", "access",
            "faccessat", "getrandom", "futex", "rt_sigreturn", "exit", "exit_group");

    /**
     * Denied (EPERM) in every confined launch: calls that could reshape the boundary from inside
     * (mount, namespaces, ptrace, kernel keyring, BPF, module loading). Reported as a limitation,
     * since a program that needs them cannot run confined.
     */
    public static final List<String> HARDENING_BASELINE = List.of(
            "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount", "fsconfig", "fspick",
            "mount_setattr", "unshare", "setns", "ptrace", "process_vm_readv", "process_vm_writev", "keyctl",
            "add_key", "request_key", "bpf", "kexec_load", "kexec_file_load", "init_module", "finit_module",
            "delete_module", "perf_event_open", "userfaultfd", "open_by_handle_at", "name_to_handle_at");

    /** io_uring performs file and socket operations from kernel workers; denied when those domains are confined. */
    public static final List<String> IO_URING = List.of("io_uring_setup", "io_uring_enter", "io_uring_register");

    static final int AF_UNIX = 1;
    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int AF_NETLINK = 16;
    static final int AF_PACKET = 17;
    static final int SOCK_STREAM = 1;
    static final int SOCK_DGRAM = 2;
    static final int SOCK_RAW = 3;
    static final int SOCK_TYPE_MASK = 0xf;
    static final long CLONE_THREAD = 0x00010000L;

    /** Socket restriction: AF_PACKET and raw IPv4/IPv6 always, UDP unless {@code allowUdp}. */
    public record Sockets(boolean allowUdp) {
    }

    /** The concerns of one launch. */
    public record Concerns(Optional<SyscallMode> mode, List<String> names, Optional<Sockets> sockets,
                           boolean denyIoUring, boolean denyProcessCreation) {
        public Concerns {
            names = List.copyOf(names);
        }

        public static Concerns hardeningOnly() {
            return new Concerns(Optional.empty(), List.of(), Optional.empty(), false, false);
        }
    }

    private SyscallFilters() {
    }

    public static FilterSpec build(Concerns c) {
        return c.mode().orElse(SyscallMode.DENY) == SyscallMode.ALLOW ? allowMode(c) : denyMode(c);
    }

    private static Set<String> deniedNames(Concerns c) {
        Set<String> denied = new LinkedHashSet<>(HARDENING_BASELINE);
        if (c.denyIoUring()) {
            denied.addAll(IO_URING);
        }
        if (c.denyProcessCreation()) {
            denied.add("fork");
            denied.add("vfork");
        }
        return denied;
    }

    private static FilterSpec denyMode(Concerns c) {
        Set<String> unconditional = new LinkedHashSet<>(c.names());
        unconditional.addAll(deniedNames(c));
        List<Rule> rules = new ArrayList<>();
        unconditional.forEach(n -> rules.add(Rule.of(n, FilterSpec.EPERM)));
        if (c.denyProcessCreation()) {
            if (!unconditional.contains("clone3")) {
                rules.add(Rule.of("clone3", FilterSpec.ENOSYS));
            }
            if (!unconditional.contains("clone")) {
                rules.add(new Rule("clone", FilterSpec.EPERM, List.of(ArgCmp.maskedEq(0, CLONE_THREAD, 0))));
            }
        }
        if (c.sockets().isPresent() && !unconditional.contains("socket")) {
            rules.add(new Rule("socket", FilterSpec.EPERM, List.of(ArgCmp.eq(0, AF_PACKET))));
            for (int family : new int[] {AF_INET, AF_INET6}) {
                rules.add(new Rule("socket", FilterSpec.EPERM,
                        List.of(ArgCmp.eq(0, family), ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_RAW))));
                if (!c.sockets().get().allowUdp()) {
                    rules.add(new Rule("socket", FilterSpec.EPERM,
                            List.of(ArgCmp.eq(0, family), ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_DGRAM))));
                }
            }
        }
        return new FilterSpec(purpose(c), FilterSpec.ALLOW, rules);
    }

    private static FilterSpec allowMode(Concerns c) {
        Set<String> allowed = new LinkedHashSet<>(STARTUP_BASELINE);
        allowed.addAll(c.names());
        allowed.removeAll(deniedNames(c));
        List<Rule> rules = new ArrayList<>();
        for (String n : allowed) {
            if (n.equals("socket") && c.sockets().isPresent()) {
                rules.addAll(socketWhitelist(c.sockets().get()));
            } else if (n.equals("clone") && c.denyProcessCreation()) {
                rules.add(new Rule("clone", FilterSpec.ALLOW, List.of(ArgCmp.maskedEq(0, CLONE_THREAD, CLONE_THREAD))));
            } else if (!(n.equals("clone3") && c.denyProcessCreation())) {
                rules.add(Rule.of(n, FilterSpec.ALLOW));
            }
        }
        if (!allowed.contains("clone3") || c.denyProcessCreation()) {
            // ENOSYS, not EPERM: libc then falls back to clone(), whose flags seccomp can inspect.
            rules.add(Rule.of("clone3", FilterSpec.ENOSYS));
        }
        return new FilterSpec(purpose(c), FilterSpec.EPERM, rules);
    }

    /** In allow-list mode socket() is allowed only for the families and types the network concern permits. */
    private static List<Rule> socketWhitelist(Sockets s) {
        List<Rule> rules = new ArrayList<>();
        rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(ArgCmp.eq(0, AF_UNIX))));
        rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(ArgCmp.eq(0, AF_NETLINK))));
        for (int family : new int[] {AF_INET, AF_INET6}) {
            rules.add(new Rule("socket", FilterSpec.ALLOW,
                    List.of(ArgCmp.eq(0, family), ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_STREAM))));
            if (s.allowUdp()) {
                rules.add(new Rule("socket", FilterSpec.ALLOW,
                        List.of(ArgCmp.eq(0, family), ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_DGRAM))));
            }
        }
        return rules;
    }

    private static String purpose(Concerns c) {
        List<String> parts = new ArrayList<>();
        c.mode().ifPresent(m -> parts.add("syscall " + m.token() + " list (" + c.names().size() + " names)"));
        parts.add("hardening baseline");
        c.sockets().ifPresent(s -> parts.add(s.allowUdp() ? "raw/packet sockets denied" : "udp/raw/packet sockets denied"));
        if (c.denyIoUring()) {
            parts.add("io_uring denied");
        }
        if (c.denyProcessCreation()) {
            parts.add("process creation denied");
        }
        return String.join(" + ", parts);
    }

    /** Every name the program of these concerns mentions, for validation before compiling. */
    public static Collection<String> mentionedNames(Concerns c) {
        return build(c).rules().stream().map(Rule::syscall).distinct().toList();
    }
}
