package io.aasm.backend.container.internal.lower;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aasm.ports.policy.SyscallMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The seccomp profile of one container, in the engine's JSON format. Always an allow list (default: EPERM),
 * so a call the table does not know is never allowed, and the runtime answers ENOSYS for every number
 * above the highest listed. At least as strict as aasm-native's baseline: the same hardening names denied,
 * {@code clone} with a namespace flag denied, {@code clone3} ENOSYS (libc falls back to clone, whose flags
 * are visible), {@code ioctl} TIOCSTI and TIOCLINUX denied (an allowed set of argument patterns that
 * excludes exactly those two commands in the low 32 bits the kernel reads).
 */
public final class SeccompProfile {
    /** Denied in every launch: calls that could reshape the boundary from inside (the native baseline's). */
    public static final List<String> HARDENING_BASELINE = List.of(
            "mount", "umount2", "pivot_root", "move_mount", "open_tree", "open_tree_attr", "fsopen", "fsmount",
            "fsconfig", "fspick", "mount_setattr", "unshare", "setns", "chroot", "ptrace", "process_vm_readv",
            "process_vm_writev", "keyctl", "add_key", "request_key", "bpf", "kexec_load", "kexec_file_load",
            "init_module", "finit_module", "delete_module", "perf_event_open", "userfaultfd", "open_by_handle_at",
            "name_to_handle_at", "acct", "swapon", "swapoff", "reboot", "sethostname", "setdomainname", "syslog",
            "quotactl", "vhangup", "iopl", "ioperm", "lookup_dcookie", "fanotify_init");

    /**
     * Allowed in allow-list mode whatever the policy says: the program's exec and startup (aasm-native's
     * startup baseline) and what the engine's runtime (a Go program, all of whose threads the filter covers)
     * calls between installing the profile and exec'ing the program.
     */
    public static final List<String> STARTUP = List.of(
            "execve", "brk", "mmap", "munmap", "mprotect", "arch_prctl", "set_tid_address", "set_robust_list",
            "rseq", "prlimit64", "openat", "close", "read", "pread64", "newfstatat", "fstat", "access",
            "faccessat", "getrandom", "futex", "rt_sigreturn", "exit", "exit_group", "write", "nanosleep",
            "clock_nanosleep", "clock_gettime", "sched_yield", "epoll_pwait", "epoll_wait", "epoll_ctl", "madvise",
            "rt_sigprocmask", "rt_sigaction", "sigaltstack", "gettid", "getpid", "getppid", "tgkill", "fcntl",
            "capget", "capset", "prctl");

    static final long CLONE_THREAD = 0x00010000L;
    /** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET. */
    static final long CLONE_NAMESPACE_FLAGS = 0x00020000L | 0x02000000L | 0x04000000L | 0x08000000L
            | 0x10000000L | 0x20000000L | 0x40000000L;
    static final long TIOCSTI = 0x5412;
    static final long TIOCLINUX = 0x541C;
    static final int EPERM = 1;
    static final int ENOSYS = 38;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SeccompProfile() {
    }

    /** The concerns of one launch: the policy's list (if stated) and whether process creation is denied. */
    public record Concerns(Optional<SyscallMode> mode, List<String> names, boolean denyProcessCreation) {
        public Concerns {
            names = List.copyOf(names);
        }
    }

    /** The names the profile allows without argument conditions. */
    static Set<String> allowed(SyscallTable table, Concerns c) {
        Set<String> out = new TreeSet<>();
        if (c.mode().orElse(SyscallMode.DENY) == SyscallMode.ALLOW) {
            out.addAll(STARTUP);
            out.addAll(c.names());
        } else {
            out.addAll(table.numbers().keySet());
            out.removeAll(c.names());
        }
        out.removeAll(HARDENING_BASELINE);
        if (c.denyProcessCreation()) {
            out.remove("fork");
            out.remove("vfork");
        }
        out.retainAll(table.numbers().keySet());
        return out;
    }

    public static String build(SyscallTable table, Concerns c) {
        Set<String> allowed = allowed(table, c);
        Set<String> plain = new LinkedHashSet<>(allowed);
        plain.removeAll(List.of("clone", "clone3", "ioctl"));
        ObjectNode root = JSON.createObjectNode();
        root.put("defaultAction", "SCMP_ACT_ERRNO");
        root.put("defaultErrnoRet", EPERM);
        root.putArray("architectures").add(table.scmpArch());
        ArrayNode rules = root.putArray("syscalls");
        ObjectNode all = rules.addObject();
        ArrayNode names = all.putArray("names");
        plain.forEach(names::add);
        all.put("action", "SCMP_ACT_ALLOW");
        if (allowed.contains("clone")) {
            // without a namespace flag; with process creation denied, only threads (CLONE_THREAD set)
            long mask = CLONE_NAMESPACE_FLAGS | (c.denyProcessCreation() ? CLONE_THREAD : 0);
            rule(rules, "clone", "SCMP_ACT_ALLOW", 0, mask, c.denyProcessCreation() ? CLONE_THREAD : 0);
        }
        ObjectNode clone3 = rules.addObject();
        clone3.putArray("names").add("clone3");
        clone3.put("action", "SCMP_ACT_ERRNO");
        clone3.put("errnoRet", ENOSYS);
        if (allowed.contains("ioctl")) {
            for (long[] p : excluding32(List.of(TIOCSTI, TIOCLINUX))) {
                rule(rules, "ioctl", "SCMP_ACT_ALLOW", 1, p[0], p[1]);
            }
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void rule(ArrayNode rules, String name, String action, int index, long mask, long value) {
        ObjectNode r = rules.addObject();
        r.putArray("names").add(name);
        r.put("action", action);
        ObjectNode a = r.putArray("args").addObject();
        a.put("index", index);
        a.put("value", mask);
        a.put("valueTwo", value);
        a.put("op", "SCMP_CMP_MASKED_EQ");
    }

    /**
     * (mask, value) pairs whose masked-equality matches cover exactly the 32-bit values other than
     * {@code points}: one single-bit pattern per bit where every point agrees (a value differing there is
     * none of them), and every combination of the bits where they differ except the points' own. A value
     * whose low 32 bits equal a point matches none, whatever its upper bits.
     */
    static List<long[]> excluding32(List<Long> points) {
        long agree = 0xFFFFFFFFL;
        long first = points.get(0);
        for (long p : points) {
            agree &= ~(p ^ first);
        }
        List<long[]> out = new ArrayList<>();
        for (int bit = 0; bit < 32; bit++) {
            long b = 1L << bit;
            if ((agree & b) != 0) {
                out.add(new long[] {b, ~first & b});
            }
        }
        long differ = 0xFFFFFFFFL & ~agree;
        List<Integer> bits = new ArrayList<>();
        for (int bit = 0; bit < 32; bit++) {
            if ((differ & (1L << bit)) != 0) {
                bits.add(bit);
            }
        }
        if (bits.size() > 8) {
            throw new IllegalArgumentException("points differ in too many bits to enumerate: " + bits.size());
        }
        for (int combo = 0; combo < (1 << bits.size()); combo++) {
            long v = 0;
            for (int i = 0; i < bits.size(); i++) {
                if ((combo & (1 << i)) != 0) {
                    v |= 1L << bits.get(i);
                }
            }
            long value = v;
            if (points.stream().noneMatch(p -> (p & differ) == value)) {
                out.add(new long[] {differ, value});
            }
        }
        return out;
    }

    /** One sentence for plans and evidence. */
    public static String describe(SyscallTable table, Concerns c) {
        int n = allowed(table, c).size();
        return "seccomp profile given to the engine: allow list of " + n + " of the " + table.numbers().size()
                + " calls of " + table.arch() + (c.mode().isPresent() ? " (policy " + c.mode().get().token() + " list of "
                + c.names().size() + ")" : "") + "; everything else EPERM, newer calls ENOSYS; hardening baseline "
                + "denied; clone with namespace flags EPERM, clone3 ENOSYS; ioctl TIOCSTI/TIOCLINUX EPERM"
                + (c.denyProcessCreation() ? "; fork/vfork and clone without CLONE_THREAD EPERM" : "");
    }
}
