package io.aasm.backend.landlockseccomp.internal.seccomp;

import io.aasm.backend.landlockseccomp.internal.seccomp.FilterSpec.ArgCmp;
import io.aasm.backend.landlockseccomp.internal.seccomp.FilterSpec.Rule;
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
            "mount", "umount2", "pivot_root", "move_mount", "open_tree", "open_tree_attr", "fsopen", "fsmount",
            "fsconfig", "fspick", "mount_setattr", "unshare", "setns", "chroot", "ptrace", "process_vm_readv",
            "process_vm_writev", "keyctl", "add_key", "request_key", "bpf", "kexec_load", "kexec_file_load",
            "init_module", "finit_module", "delete_module", "perf_event_open", "userfaultfd", "open_by_handle_at",
            "name_to_handle_at", "acct", "swapon", "swapoff", "reboot", "sethostname", "setdomainname", "syslog",
            "quotactl", "vhangup", "iopl", "ioperm", "lookup_dcookie", "fanotify_init");

    /** Watching folders: denied when reads are confined without a view that hides what is not granted. */

    /** io_uring performs file and socket operations from kernel workers; denied when those domains are confined. */
    public static final List<String> IO_URING = List.of("io_uring_setup", "io_uring_enter", "io_uring_register");

    static final int AF_UNIX = 1;
    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int AF_NETLINK = 16;
    static final int AF_PACKET = 17;
    /** Families above every one Linux defines (AF_MAX is 46 in 6.x); denied whatever a newer kernel adds. */
    static final int AF_LIMIT = 46;
    static final int SOCK_STREAM = 1;
    static final int SOCK_DGRAM = 2;
    static final int SOCK_TYPE_MASK = 0xf;
    static final int IPPROTO_ICMP = 1;
    static final int IPPROTO_TCP = 6;
    static final int IPPROTO_UDP = 17;
    static final int TCP_FASTOPEN_CONNECT = 30;
    static final long MSG_FASTOPEN = 0x20000000L;
    static final long CLONE_THREAD = 0x00010000L;

    /**
     * Socket restriction when egress is confined: only unix, netlink, TCP and (with {@code allowUdp}) UDP
     * sockets of the inet families; every other family, type and protocol (raw, packet, SCTP, MPTCP,
     * DCCP, ICMP "ping", UDP-Lite, ...) and TCP Fast Open (which sends data before connect()) fail with EPERM.
     */
    public record Sockets(boolean allowUdp, boolean egressConfined) {
        public Sockets(boolean allowUdp) {
            this(allowUdp, true);
        }
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
        return build(c, n -> true);
    }

    /**
     * {@code known} tells which names libseccomp resolves here: baseline names it does not know are left to
     * {@link BaselineFilter}, which fails every number beyond libseccomp's table with ENOSYS.
     */
    public static FilterSpec build(Concerns c, java.util.function.Predicate<String> known) {
        return c.mode().orElse(SyscallMode.DENY) == SyscallMode.ALLOW ? allowMode(c, known) : denyMode(c, known);
    }

    private static Set<String> deniedNames(Concerns c, java.util.function.Predicate<String> known) {
        Set<String> denied = new LinkedHashSet<>();
        HARDENING_BASELINE.stream().filter(known).forEach(denied::add);
        if (c.denyIoUring()) {
            denied.addAll(IO_URING);
        }
        if (c.denyProcessCreation()) {
            denied.add("fork");
            denied.add("vfork");
        }
        return denied;
    }

    private static FilterSpec denyMode(Concerns c, java.util.function.Predicate<String> known) {
        Set<String> unconditional = new LinkedHashSet<>(c.names());
        unconditional.addAll(deniedNames(c, known));
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
        if (c.sockets().isPresent() && c.sockets().get().egressConfined()) {
            if (!unconditional.contains("socket")) {
                rules.addAll(socketDenials(c.sockets().get()));
            }
            rules.addAll(fastOpenDenials(unconditional));
        } else if (c.sockets().isPresent() && !c.sockets().get().allowUdp() && !unconditional.contains("socket")) {
            for (int family : new int[] {AF_INET, AF_INET6}) {
                rules.add(new Rule("socket", FilterSpec.EPERM,
                        List.of(ArgCmp.eq(0, family), ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_DGRAM))));
            }
        }
        return new FilterSpec(purpose(c), FilterSpec.ALLOW, rules);
    }

    /** Deny-list form of {@link Sockets}: every family but unix/inet/inet6/netlink, then types and protocols. */
    private static List<Rule> socketDenials(Sockets s) {
        List<Rule> rules = new ArrayList<>();
        rules.add(new Rule("socket", FilterSpec.EPERM, List.of(new ArgCmp(0, FilterSpec.Op.GE, AF_LIMIT, 0))));
        for (int family = 0; family < AF_LIMIT; family++) {
            if (family != AF_UNIX && family != AF_INET && family != AF_INET6 && family != AF_NETLINK) {
                rules.add(new Rule("socket", FilterSpec.EPERM, List.of(ArgCmp.eq(0, family))));
            }
        }
        for (int family : new int[] {AF_INET, AF_INET6}) {
            // Any type but stream and datagram (raw, seqpacket, rdm, dccp, packet): the type is masked because
            // SOCK_NONBLOCK/SOCK_CLOEXEC ride in the same argument.
            for (int type = 0; type <= SOCK_TYPE_MASK; type++) {
                if (type != SOCK_STREAM && (type != SOCK_DGRAM || !s.allowUdp())) {
                    rules.add(new Rule("socket", FilterSpec.EPERM,
                            List.of(ArgCmp.eq(0, family), ArgCmp.maskedEq(1, SOCK_TYPE_MASK, type))));
                }
            }
            // Stream: only TCP (0 or 6); above 6 are MPTCP (262) and SCTP (132); 1..5 the kernel rejects.
            rules.add(new Rule("socket", FilterSpec.EPERM, List.of(ArgCmp.eq(0, family),
                    ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_STREAM), new ArgCmp(2, FilterSpec.Op.GT, IPPROTO_TCP, 0))));
            if (s.allowUdp()) {
                // Datagram: only UDP (0 or 17); ICMP "ping" sockets (1), ICMPv6 (58) and UDP-Lite (136) fail.
                rules.add(new Rule("socket", FilterSpec.EPERM, List.of(ArgCmp.eq(0, family),
                        ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_DGRAM), ArgCmp.eq(2, IPPROTO_ICMP))));
                rules.add(new Rule("socket", FilterSpec.EPERM, List.of(ArgCmp.eq(0, family),
                        ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_DGRAM), new ArgCmp(2, FilterSpec.Op.GT, IPPROTO_UDP, 0))));
            }
        }
        return rules;
    }

    /** TCP Fast Open sends its first bytes from sendto/sendmsg without connect(), bypassing port rules. */
    private static List<Rule> fastOpenDenials(Set<String> unconditional) {
        List<Rule> rules = new ArrayList<>();
        if (!unconditional.contains("sendto")) {
            rules.add(new Rule("sendto", FilterSpec.EPERM, List.of(ArgCmp.maskedEq(3, MSG_FASTOPEN, MSG_FASTOPEN))));
        }
        if (!unconditional.contains("sendmsg")) {
            rules.add(new Rule("sendmsg", FilterSpec.EPERM, List.of(ArgCmp.maskedEq(2, MSG_FASTOPEN, MSG_FASTOPEN))));
        }
        if (!unconditional.contains("sendmmsg")) {
            rules.add(new Rule("sendmmsg", FilterSpec.EPERM, List.of(ArgCmp.maskedEq(3, MSG_FASTOPEN, MSG_FASTOPEN))));
        }
        if (!unconditional.contains("setsockopt")) {
            rules.add(new Rule("setsockopt", FilterSpec.EPERM,
                    List.of(ArgCmp.eq(1, IPPROTO_TCP), ArgCmp.eq(2, TCP_FASTOPEN_CONNECT))));
        }
        return rules;
    }

    private static FilterSpec allowMode(Concerns c, java.util.function.Predicate<String> known) {
        Set<String> allowed = new LinkedHashSet<>(STARTUP_BASELINE);
        allowed.addAll(c.names());
        allowed.removeAll(deniedNames(c, known));
        List<Rule> rules = new ArrayList<>();
        for (String n : allowed) {
            if (n.equals("socket") && c.sockets().isPresent()) {
                rules.addAll(socketWhitelist(c.sockets().get()));
            } else if (c.sockets().isPresent() && c.sockets().get().egressConfined() && fastOpenAllow(n).isPresent()) {
                rules.addAll(fastOpenAllow(n).get());
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
        if (!s.egressConfined()) {
            // name resolution alone: every socket but an inet datagram one (no DNS over UDP); one comparison
            // per rule, since libseccomp compares each argument once per rule
            rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(new ArgCmp(0, FilterSpec.Op.LT, AF_INET, 0))));
            rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(new ArgCmp(0, FilterSpec.Op.GT, AF_INET6, 0))));
            for (int family = AF_INET + 1; family < AF_INET6; family++) {
                rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(ArgCmp.eq(0, family))));
            }
            for (int family : new int[] {AF_INET, AF_INET6}) {
                rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(ArgCmp.eq(0, family),
                        ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_STREAM))));
            }
            return rules;
        }
        rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(ArgCmp.eq(0, AF_UNIX))));
        rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(ArgCmp.eq(0, AF_NETLINK))));
        for (int family : new int[] {AF_INET, AF_INET6}) {
            rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(ArgCmp.eq(0, family),
                    ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_STREAM), new ArgCmp(2, FilterSpec.Op.LE, IPPROTO_TCP, 0))));
            if (s.allowUdp()) {
                for (int proto : new int[] {0, IPPROTO_UDP}) {
                    rules.add(new Rule("socket", FilterSpec.ALLOW, List.of(ArgCmp.eq(0, family),
                            ArgCmp.maskedEq(1, SOCK_TYPE_MASK, SOCK_DGRAM), ArgCmp.eq(2, proto))));
                }
            }
        }
        return rules;
    }

    /** Allow-list form of the Fast Open denials: the call is allowed only without the flag or option. */
    private static Optional<List<Rule>> fastOpenAllow(String n) {
        return switch (n) {
            case "sendto", "sendmmsg" -> Optional.of(List.of(new Rule(n, FilterSpec.ALLOW,
                    List.of(ArgCmp.maskedEq(3, MSG_FASTOPEN, 0)))));
            case "sendmsg" -> Optional.of(List.of(new Rule(n, FilterSpec.ALLOW,
                    List.of(ArgCmp.maskedEq(2, MSG_FASTOPEN, 0)))));
            case "setsockopt" -> Optional.of(List.of(
                    new Rule(n, FilterSpec.ALLOW, List.of(new ArgCmp(1, FilterSpec.Op.NE, IPPROTO_TCP, 0))),
                    new Rule(n, FilterSpec.ALLOW, List.of(new ArgCmp(2, FilterSpec.Op.NE, TCP_FASTOPEN_CONNECT, 0)))));
            default -> Optional.empty();
        };
    }

    private static String purpose(Concerns c) {
        List<String> parts = new ArrayList<>();
        c.mode().ifPresent(m -> parts.add("syscall " + m.token() + " list (" + c.names().size() + " names)"));
        parts.add("hardening baseline");
        c.sockets().ifPresent(s -> parts.add(!s.egressConfined() ? (s.allowUdp() ? "" : "udp sockets denied")
                : "sockets limited to unix, netlink, tcp" + (s.allowUdp() ? ", udp" : "") + "; tcp fast open denied"));
        parts.removeIf(String::isEmpty);
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
