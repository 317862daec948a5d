package io.aasm.backend.nativ.internal.seccomp;

import io.aasm.backend.nativ.internal.seccomp.FilterSpec.ArgCmp;
import io.aasm.backend.nativ.internal.seccomp.FilterSpec.Rule;
import io.aasm.ports.policy.SyscallMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The seccomp programs the backend installs, one per concern, all by name. */
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

    /** io_uring performs file and socket operations from kernel workers; deny it when those domains are confined. */
    public static final List<String> IO_URING = List.of("io_uring_setup", "io_uring_enter", "io_uring_register");

    static final int AF_UNIX = 1;
    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int AF_PACKET = 17;
    static final int SOCK_DGRAM = 2;
    static final int SOCK_RAW = 3;
    static final int SOCK_TYPE_MASK = 0xf;
    static final long CLONE_THREAD = 0x00010000L;

    private SyscallFilters() {
    }

    /** The policy's own list: allow mode denies everything else (EPERM), deny mode denies the names. */
    public static FilterSpec policyList(SyscallMode mode, Collection<String> names) {
        List<Rule> rules = new ArrayList<>();
        if (mode == SyscallMode.ALLOW) {
            Set<String> all = new LinkedHashSet<>(STARTUP_BASELINE);
            all.addAll(names);
            all.forEach(n -> rules.add(Rule.of(n, FilterSpec.ALLOW)));
            return new FilterSpec("syscall allow list", FilterSpec.EPERM, rules);
        }
        new LinkedHashSet<>(names).forEach(n -> rules.add(Rule.of(n, FilterSpec.EPERM)));
        return new FilterSpec("syscall deny list", FilterSpec.ALLOW, rules);
    }

    public static FilterSpec hardening() {
        List<Rule> rules = new ArrayList<>();
        HARDENING_BASELINE.forEach(n -> rules.add(Rule.of(n, FilterSpec.EPERM)));
        return new FilterSpec("hardening baseline", FilterSpec.ALLOW, rules);
    }

    /**
     * socket() family/type restrictions: AF_PACKET always; UDP and raw IPv4/IPv6 unless allowed.
     * Also io_uring, whose socket operations would bypass the per-call checks.
     */
    public static FilterSpec network(boolean allowUdp) {
        List<Rule> rules = new ArrayList<>();
        rules.add(new Rule("socket", FilterSpec.EPERM, List.of(ArgCmp.eq(0, AF_PACKET))));
        for (int family : new int[] {AF_INET, AF_INET6}) {
            rules.add(new Rule("socket", FilterSpec.EPERM,
                    List.of(ArgCmp.eq(0, family), ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_RAW))));
            if (!allowUdp) {
                rules.add(new Rule("socket", FilterSpec.EPERM,
                        List.of(ArgCmp.eq(0, family), ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_DGRAM))));
            }
        }
        return new FilterSpec(allowUdp ? "socket families (raw, packet denied)"
                : "socket families (udp, raw, packet denied)", FilterSpec.ALLOW, rules);
    }

    /** Denies io_uring entirely. */
    public static FilterSpec ioUring() {
        List<Rule> rules = new ArrayList<>();
        IO_URING.forEach(n -> rules.add(Rule.of(n, FilterSpec.EPERM)));
        return new FilterSpec("io_uring denied", FilterSpec.ALLOW, rules);
    }

    /**
     * No new processes: fork/vfork and clone without CLONE_THREAD fail with EPERM, threads still work.
     * clone3 passes its flags in memory seccomp cannot read, so it fails with ENOSYS and libc falls
     * back to clone, which we can inspect.
     */
    public static FilterSpec processDeny() {
        List<Rule> rules = new ArrayList<>();
        rules.add(Rule.of("fork", FilterSpec.EPERM));
        rules.add(Rule.of("vfork", FilterSpec.EPERM));
        rules.add(new Rule("clone", FilterSpec.EPERM, List.of(ArgCmp.maskedEq(0, CLONE_THREAD, 0))));
        rules.add(Rule.of("clone3", FilterSpec.ENOSYS));
        return new FilterSpec("process creation denied", FilterSpec.ALLOW, rules);
    }
}
