package io.aasm.backend.vm.internal.lower;

import io.aasm.ports.policy.SyscallMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The guest's seccomp programs. Every launch gets the hardening baseline (the native backend's, for the same
 * reasons: what a program could use to leave or widen its confinement, even inside a guest): new namespaces
 * through any entry point, the mount family, tracing, keyrings, BPF, modules, kexec, terminal injection.
 * The policy's own list (syscall domain) and the fork denial (process creation) are separate programs.
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

    private final Seccomp seccomp;

    SeccompPrograms(Seccomp seccomp) {
        this.seccomp = seccomp;
    }

    /** A call's number on this (and the guest's) architecture, -1 when libseccomp does not know it. */
    int number(String name) {
        return seccomp.number(name);
    }

    byte[] baseline() throws IOException {
        List<Seccomp.Rule> rules = new ArrayList<>(Seccomp.named(DENIED, Seccomp.EPERM));
        rules.add(Seccomp.Rule.plain("clone3", Seccomp.ENOSYS)); // its flags are in memory seccomp cannot read
        for (long bit = 1; bit != 0 && bit <= CLONE_NEW; bit <<= 1) {
            if ((CLONE_NEW & bit) != 0) {
                rules.add(new Seccomp.Rule("clone", Seccomp.EPERM, new long[][] {Seccomp.maskedEq(0, bit, bit)}));
            }
        }
        rules.add(new Seccomp.Rule("ioctl", Seccomp.EPERM, new long[][] {Seccomp.eq(1, TIOCSTI)}));
        rules.add(new Seccomp.Rule("ioctl", Seccomp.EPERM, new long[][] {Seccomp.eq(1, TIOCLINUX)}));
        return seccomp.compile(Seccomp.ALLOW, rules, true);
    }

    /** fork and vfork fail with EPERM, clone without CLONE_THREAD too (threads stay possible). */
    byte[] noFork() throws IOException {
        List<Seccomp.Rule> rules = new ArrayList<>(Seccomp.named(List.of("fork", "vfork"), Seccomp.EPERM));
        rules.add(new Seccomp.Rule("clone", Seccomp.EPERM, new long[][] {Seccomp.maskedEq(0, CLONE_THREAD, 0)}));
        return seccomp.compile(Seccomp.ALLOW, rules, false);
    }

    /** The policy's list; an unknown name is an IOException naming it. */
    byte[] policy(SyscallMode mode, List<String> names) throws IOException {
        for (String n : names) {
            if (seccomp.number(n) < 0) {
                throw new IOException("unknown system call '" + n + "'");
            }
        }
        if (mode == SyscallMode.DENY) {
            return seccomp.compile(Seccomp.ALLOW, Seccomp.named(names, Seccomp.EPERM), false);
        }
        List<String> allowed = new ArrayList<>(names);
        STARTUP.stream().filter(n -> !allowed.contains(n)).forEach(allowed::add);
        return seccomp.compile(Seccomp.EPERM, Seccomp.named(allowed, Seccomp.ALLOW), true);
    }
}
