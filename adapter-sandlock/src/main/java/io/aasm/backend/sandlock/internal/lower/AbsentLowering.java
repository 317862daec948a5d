package io.aasm.backend.sandlock.internal.lower;

import io.aasm.ports.capability.CapabilityDomain;
import io.aasm.ports.policy.ControlRequirement;
import io.aasm.ports.policy.Scope;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Domains the policy does not state restrict nothing, under every backend. Sandlock's own defaults
 * are deny-all for files and network, 64 processes, and scoped IPC, so each absent domain is lowered
 * to the flags that open it again; what sandlock 0.8.6 keeps restricting even then is named
 * ({@link Absent#residual()}) so the report can say it.
 */
public final class AbsentLowering {
    /** The flags that leave an unstated domain open, what they mean, and what stays restricted anyway. */
    public record Absent(CapabilityDomain domain, List<String> flags, List<String> steps, List<String> residual) {
        public Absent {
            flags = List.copyOf(flags);
            steps = List.copyOf(steps);
            residual = List.copyOf(residual);
        }
    }

    /** Sandlock's --max-processes takes a u32; its largest value is no ceiling at all in practice. */
    static final long NO_PROCESS_CEILING = 4_294_967_295L;

    static final String PROC_SYS = "sandlock's supervisor still denies the sensitive /proc and /sys entries (kcore,"
            + " kmsg, kallsyms, keys, sysrq-trigger, /sys/firmware, /sys/kernel/security, /sys/class/net) and shows"
            + " only the sandbox's own processes under /proc";
    static final String HOSTS = "sandlock always serves a synthetic /etc/hosts (localhost only) and a virtual host"
            + " name (the sandbox name): names from the host's /etc/hosts other than localhost do not resolve; DNS"
            + " through the host's resolver works wherever egress allows it";
    static final String OTHERS = "other processes' /proc/<pid>/environ, mem and fd entries stay unreadable: every"
            + " sandlock launch is a Landlock domain, which denies ptrace-mode access to processes outside it";
    static final String BLOCKLIST = "sandlock's default syscall blocklist still applies and cannot be lifted (mount,"
            + " umount2, pivot_root, unshare, setns, ptrace, process_vm_readv/writev, bpf, perf_event_open, io_uring_*,"
            + " keyctl, add_key, request_key, personality, kexec_*, init_module, ...): each fails with EPERM";

    private AbsentLowering() {
    }

    public static List<Absent> lower(List<ControlRequirement> stated) {
        return lower(stated, OwnPaths.none());
    }

    /** {@code own}: aasm's own paths, which writes opened for an unstated domain leave read-only. */
    public static List<Absent> lower(List<ControlRequirement> stated, OwnPaths own) {
        Map<CapabilityDomain, Scope> by = new EnumMap<>(CapabilityDomain.class);
        stated.forEach(r -> by.putIfAbsent(r.domain(), r.scope()));
        List<Absent> out = new ArrayList<>();
        for (CapabilityDomain d : CapabilityDomain.values()) {
            if (!by.containsKey(d)) {
                out.add(lower(d, Optional.ofNullable(by.get(CapabilityDomain.FILESYSTEM_READ)), own));
            }
        }
        return out;
    }

    static Absent lower(CapabilityDomain d, Optional<Scope> read, OwnPaths own) {
        return switch (d) {
            case FILESYSTEM_READ -> new Absent(d, List.of("--fs-read=/"), List.of("--fs-read=/ (Landlock read+execute"
                    + " beneath /: reads left open)"), List.of(PROC_SYS));
            case FILESYSTEM_WRITE -> write(read, own);
            case NETWORK_EGRESS -> new Absent(d, List.of("--net-allow=*", "--net-allow=icmp://*"), List.of(
                    "--net-allow=* and --net-allow=icmp://* (TCP and UDP to any host and port, ICMP to any host)"), List.of("raw and packet sockets stay denied by sandlock's seccomp filter"
                            + " (EPERM / EAFNOSUPPORT), even for root"));
            case NAME_RESOLUTION -> new Absent(d, List.of(), List.of("no flag: sandlock has none that leaves name resolution alone"), List.of(HOSTS));
            case SYSCALL -> new Absent(d, List.of(), List.of("no --extra-deny-syscall"), List.of(BLOCKLIST));
            case PROCESS_CREATION -> new Absent(d, List.of("--max-processes=" + NO_PROCESS_CEILING), List.of(
                    "--max-processes=" + NO_PROCESS_CEILING + " (sandlock's default ceiling of 64 lifted)"),
                    List.of());
            case IPC -> new Absent(d, List.of("--disable=signal-scope", "--disable=abstract-unix-socket-scope",
                    "--extra-allow-syscall=sysv_ipc"), List.of("--disable=signal-scope, "
                    + "--disable=abstract-unix-socket-scope, --extra-allow-syscall=sysv_ipc (signals,"
                    + " abstract unix sockets and System V IPC beyond the sandbox left open)"), List.of());
            case CREDENTIAL -> new Absent(d, List.of(), List.of("no flag (the environment starts empty)"),
                    List.of(OTHERS));
            case RESOURCE -> new Absent(d, List.of(), List.of("no flag (sandlock sets no memory, open-file"
                    + " or time ceiling by default)"), List.of());
        };
    }

    /**
     * Sandlock's write grant implies read. With reads unstated, {@code --fs-write=/} opens everything;
     * with reads stated, writes can be opened only beneath the read grants (plus /dev/null, which reads
     * as empty), because any other write grant would widen the stated reads. Either way aasm's own paths
     * stay read-only: writes are opened beside them, never on an ancestor.
     */
    private static Absent write(Optional<Scope> read, OwnPaths own) {
        List<String> roots = new ArrayList<>();
        if (read.isEmpty()) {
            roots.add("/");
        } else if (read.get() instanceof Scope.Paths p) {
            for (String path : p.paths()) {
                try {
                    roots.add(Grant.resolve(path).real());
                } catch (java.io.IOException e) {
                    roots.add(path); // cannot be resolved: refused before launch like any missing grant
                }
            }
        }
        LinkedHashSet<String> paths = new LinkedHashSet<>();
        roots.forEach(r -> paths.addAll(own.writableBeneath(r)));
        List<String> residual = new ArrayList<>();
        if (read.isPresent()) {
            paths.add("/dev/null");
            residual.add("not stated, yet sandlock 0.8.6 denies writes outside the read grants: its write grant"
                    + " implies read, so opening writes anywhere else would widen the stated filesystem.read");
        }
        if (!own.isEmpty()) {
            residual.add("aasm's own install, cache, runtime files and JDK stay read-only: writes are opened on each"
                    + " path beside them (" + paths.size() + " grants), so entries created later beside them are"
                    + " not writable");
        }
        List<String> flags = paths.stream().map(p -> "--fs-write=" + p).toList();
        String listed = flags.size() <= 8 ? String.join(" ", flags) : flags.size() + " --fs-write grants";
        String what = read.isEmpty() && own.isEmpty() ? "--fs-write=/ (Landlock write beneath /: writes left open)"
                : listed + " (" + (read.isEmpty() ? "writes opened beneath /" : "writes opened beneath every read"
                + " grant and /dev/null") + (own.isEmpty() ? "" : ", beside aasm's own paths") + ")";
        return new Absent(CapabilityDomain.FILESYSTEM_WRITE, flags, List.of(what), residual);
    }
}
