package io.aasm.backend.vm.internal.lower;

import io.aasm.ports.policy.SyscallMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The guest's seccomp programs. Every launch gets the hardening baseline (the native backend's, for the same
 * reasons: what a program could use to leave or widen its confinement, even inside a guest): new namespaces
 * through any entry point, the mount family, tracing, keyrings, BPF, modules, kexec, terminal injection.
 * The policy's own list (syscall domain) and the fork denial (process creation) are separate programs. Each is a
 * description by call name that the guest compiles for its own architecture ({@link Seccomp}).
 */
final class SeccompPrograms {
    static final List<String> DENIED = List.of("mount", "umount2", "pivot_root", "move_mount", "open_tree",
            "open_tree_attr", "fsopen", "fsmount", "fsconfig", "fspick", "mount_setattr", "unshare", "setns", "chroot",
            "ptrace", "process_vm_readv", "process_vm_writev", "keyctl", "add_key", "request_key", "bpf", "init_module",
            "finit_module", "delete_module", "kexec_load", "kexec_file_load", "perf_event_open", "userfaultfd",
            "name_to_handle_at", "open_by_handle_at", "acct", "swapon", "swapoff", "reboot", "sethostname",
            "setdomainname", "syslog", "quotactl", "vhangup", "iopl", "ioperm", "lookup_dcookie", "fanotify_init");
    /** What a program needs to start at all, allowed in allow-list mode whatever the list says (as native). */
    static final List<String> STARTUP = List.of("execve", "brk", "mmap", "munmap", "mprotect", "arch_prctl",
            "set_tid_address", "set_robust_list", "rseq", "prlimit64", "openat", "close", "read", "pread64",
            "newfstatat", "fstat", "access", "faccessat", "getrandom", "futex", "rt_sigreturn", "exit", "exit_group");
    private static final long CLONE_NEW = 0x00020000L | 0x02000000L | 0x04000000L | 0x08000000L | 0x10000000L
            | 0x20000000L | 0x40000000L | 0x00000080L;
    private static final long CLONE_THREAD = 0x00010000L;
    private static final long TIOCSTI = 0x5412;
    private static final long TIOCLINUX = 0x541c;

    SeccompPrograms() {
    }

    /** Every call in the baseline is optional: a call the guest's architecture lacks is no entry point there. */
    byte[] baseline() {
        List<Seccomp.Rule> rules = new ArrayList<>(Seccomp.named(DENIED, Seccomp.EPERM));
        rules.add(Seccomp.Rule.plain("clone3", Seccomp.ENOSYS)); // its flags are in memory seccomp cannot read
        for (long bit = 1; bit != 0 && bit <= CLONE_NEW; bit <<= 1) {
            if ((CLONE_NEW & bit) != 0) {
                rules.add(new Seccomp.Rule("clone", Seccomp.EPERM, false, new long[][] {Seccomp.maskedEq(0, bit, bit)}));
            }
        }
        rules.add(new Seccomp.Rule("ioctl", Seccomp.EPERM, false, new long[][] {Seccomp.eq(1, TIOCSTI)}));
        rules.add(new Seccomp.Rule("ioctl", Seccomp.EPERM, false, new long[][] {Seccomp.eq(1, TIOCLINUX)}));
        return Seccomp.describe(Seccomp.ALLOW, rules.stream().map(Seccomp.Rule::optionalHere).toList());
    }

    /**
     * fork and vfork fail with EPERM, clone without CLONE_THREAD too (threads stay possible). fork and vfork are
     * optional: arm64 has neither (its C library forks through clone), clone is required everywhere.
     */
    byte[] noFork() {
        List<Seccomp.Rule> rules = new ArrayList<>();
        Seccomp.named(List.of("fork", "vfork"), Seccomp.EPERM).forEach(r -> rules.add(r.optionalHere()));
        rules.add(new Seccomp.Rule("clone", Seccomp.EPERM, false, new long[][] {Seccomp.maskedEq(0, CLONE_THREAD, 0)}));
        return Seccomp.describe(Seccomp.ALLOW, rules);
    }

    /**
     * The policy's list, every name required: the guest refuses the plan, before anything runs, when its
     * architecture has no call of that name. Here only the name's form is checked (IOException naming it).
     */
    byte[] policy(SyscallMode mode, List<String> names) throws IOException {
        for (String n : names) {
            if (!Seccomp.wellFormed(n)) {
                throw new IOException("unknown system call '" + n + "'");
            }
        }
        if (mode == SyscallMode.DENY) {
            return Seccomp.describe(Seccomp.ALLOW, Seccomp.named(names, Seccomp.EPERM));
        }
        List<Seccomp.Rule> rules = new ArrayList<>(Seccomp.named(names, Seccomp.ALLOW));
        STARTUP.stream().filter(n -> !names.contains(n)).forEach(n -> rules.add(Seccomp.Rule.plain(n, Seccomp.ALLOW)
                .optionalHere()));
        return Seccomp.describe(Seccomp.EPERM, rules);
    }
}
