package io.aasm.backend.landlockseccomp.internal.launcher;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One record of the launcher's plan message (see src/main/c/PROTOCOL.md). Each record is one thing the
 * launcher installs; the launcher applies them in its fixed order, whatever order they are built in.
 * Validation here is shallow on purpose: the launcher re-validates everything and refuses, so tests can
 * also send bad plans (see {@link Raw}).
 */
public sealed interface PlanRecord {
    /** The wire type code. */
    int type();

    int PROGRAM = 0x01, ARG = 0x02, ENV = 0x03, CWD = 0x04, TERMINAL = 0x05;
    int NAMESPACES = 0x10, USER_MAP = 0x11, MOUNT_PROC = 0x12, VIEW_OP = 0x13, LOOPBACK_UP = 0x14,
            RELAY_TCP_PORT = 0x15, RELAY_UDP_PORT = 0x16, RELAY_PROXY = 0x17, LOOPBACK_INJECT = 0x18;
    int CGROUP_JOIN = 0x20, RLIMIT = 0x30;
    int LANDLOCK_RULESET = 0x40, LANDLOCK_PATH = 0x41, LANDLOCK_PORT = 0x42;
    int NO_NEW_PRIVS = 0x50, SECCOMP = 0x51, DROP_CAPS = 0x52, PROGRAM_PID = 0x53, CANARY = 0x54, DECISIONS = 0x55, CANARY_RLIMIT = 0x56, KEEP_FD = 0x60, SIGNALS = 0x61;

    record Program(String path) implements PlanRecord {
        public Program { Objects.requireNonNull(path); }
        public int type() { return PROGRAM; }
    }

    record Arg(String value) implements PlanRecord {
        public Arg { Objects.requireNonNull(value); }
        public int type() { return ARG; }
    }

    /** One envp entry, {@code NAME=value}. */
    record Env(String entry) implements PlanRecord {
        public Env { Objects.requireNonNull(entry); }
        public static Env of(String name, String value) { return new Env(name + "=" + value); }
        public int type() { return ENV; }
    }

    record Cwd(String path) implements PlanRecord {
        public Cwd { Objects.requireNonNull(path); }
        public int type() { return CWD; }
    }

    /** When fd 0 is a terminal the launcher may use, the program gets a pseudo-terminal it relays. */
    record Terminal() implements PlanRecord {
        public int type() { return TERMINAL; }
    }

    record Namespaces(Set<Namespace> set) implements PlanRecord {
        public Namespaces { set = set.isEmpty() ? EnumSet.noneOf(Namespace.class) : EnumSet.copyOf(set); }
        public int type() { return NAMESPACES; }
        public int mask() { return set.stream().mapToInt(Namespace::bit).reduce(0, (a, b) -> a | b); }
    }

    /** One-id maps written after unsharing the user namespace (setgroups is denied first). */
    record UserMap(int insideUid, int outsideUid, int insideGid, int outsideGid) implements PlanRecord {
        public int type() { return USER_MAP; }
    }

    /** Mount a fresh procfs of the new pid namespace on /proc of the view. */
    record MountProc() implements PlanRecord {
        public int type() { return MOUNT_PROC; }
    }

    /**
     * One step of the filesystem view, in order: ROOT (flags = base) first, then BIND (a = source), TMPFS
     * (a = options), DEVPTS, SYMLINK (a = content), DIR; b is the path in the view.
     */
    record ViewOp(int op, int flags, String a, String b) implements PlanRecord {
        public static final int ROOT = 1, BIND = 2, TMPFS = 3, DEVPTS = 4, SYMLINK = 5, DIR = 6;
        public static final int READ_ONLY = 1, NO_DEV = 2, NO_EXEC = 4;
        public ViewOp { Objects.requireNonNull(a); Objects.requireNonNull(b); }
        public static ViewOp root(int base) { return new ViewOp(ROOT, base, "", ""); }
        public int type() { return VIEW_OP; }
    }

    record LoopbackUp() implements PlanRecord {
        public int type() { return LOOPBACK_UP; }
    }

    /** Relay 127.0.0.1/[::1]:port inside the new network namespace to the host's loopback, same port. */
    record RelayTcpPort(int port) implements PlanRecord {
        public int type() { return RELAY_TCP_PORT; }
    }

    /**
     * The granted TCP ports (RELAY_TCP_PORT) are reached without a relay hop: the program's connect() to one of them
     * is trapped and answered with a socket of the host's namespace the relay connected itself (PROTOCOL.md,
     * "Injection"); every other connect goes on as without it.
     */
    record LoopbackInject() implements PlanRecord {
        public int type() { return LOOPBACK_INJECT; }
    }

    /** Relay UDP datagrams to 127.0.0.1/[::1]:port inside the new network namespace to the host's, same port. */
    record RelayUdpPort(int port) implements PlanRecord {
        public int type() { return RELAY_UDP_PORT; }
    }

    /**
     * 127.0.0.1/[::1]:port inside the new network namespace lead to the supervisor's proxy socket; every connection
     * starts with the preamble (the session's credential, never shown to the program).
     */
    record RelayProxy(int port, byte[] preamble, String socket) implements PlanRecord {
        public RelayProxy {
            preamble = preamble.clone();
            Objects.requireNonNull(socket);
        }

        @Override
        public byte[] preamble() {
            return preamble.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof RelayProxy r && r.port == port && Arrays.equals(r.preamble, preamble)
                    && r.socket.equals(socket);
        }

        @Override
        public int hashCode() {
            return Objects.hash(port, socket);
        }

        /** Never prints the preamble. */
        @Override
        public String toString() {
            return "RelayProxy[port=" + port + ", socket=" + socket + "]";
        }

        public int type() { return RELAY_PROXY; }
    }

    /** A {@code cgroup.procs} file the launcher joins before forking. */
    record CgroupJoin(String procsFile) implements PlanRecord {
        public CgroupJoin { Objects.requireNonNull(procsFile); }
        public int type() { return CGROUP_JOIN; }
    }

    /** Linux resource number (RLIMIT_AS=9, CPU=0, FSIZE=1, NOFILE=7, NPROC=6); {@link #INFINITY} for none. */
    record Rlimit(int resource, long soft, long hard) implements PlanRecord {
        public static final long INFINITY = -1L;
        public static final int CPU = 0, FSIZE = 1, NPROC = 6, NOFILE = 7, AS = 9;
        public int type() { return RLIMIT; }
    }

    record LandlockRuleset(long handledFs, long handledNet, long scoped) implements PlanRecord {
        public int type() { return LANDLOCK_RULESET; }
    }

    record LandlockPath(long allowed, String path) implements PlanRecord {
        public LandlockPath { Objects.requireNonNull(path); }
        public int type() { return LANDLOCK_PATH; }
    }

    record LandlockPort(long allowed, long port) implements PlanRecord {
        public int type() { return LANDLOCK_PORT; }
    }

    record NoNewPrivs() implements PlanRecord {
        public int type() { return NO_NEW_PRIVS; }
    }

    /** Empty every capability set of the program (bounding and ambient included) and lock the securebits. */
    record DropCaps() implements PlanRecord {
        public int type() { return DROP_CAPS; }
    }

    /** The pid the program gets in its new pid namespace (another one if taken). */
    record ProgramPid(int pid) implements PlanRecord {
        public int type() { return PROGRAM_PID; }
    }

    /**
     * The boundary tested from inside before execve (PROTOCOL.md "Canaries"): {@code kinds} is the bit mask,
     * the paths and port the FS_READ, FS_WRITE and EGRESS attempts use, {@code syscall} the SYSCALL one's.
     */
    record Canary(int kinds, int port, int syscall, String readPath, String writePath) implements PlanRecord {
        public int type() { return CANARY; }
    }

    /**
     * The ceiling the RESOURCE canary holds the program to: the hard limit of {@code resource} must be at
     * most {@code hard}, and raising it must fail (PROTOCOL.md "Canaries"). The plan's claim, not its
     * RLIMIT record: a plan that claims a ceiling it never sets is what the canary is for.
     */
    record CanaryRlimit(int resource, long hard) implements PlanRecord {
        public int type() { return CANARY_RLIMIT; }
    }

    /**
     * Record each denial of SECCOMP program number {@code filter} (0-based): its EPERM answers become
     * notifications that init answers EPERM itself, counting them (PROTOCOL.md "Decisions").
     */
    record Decisions(int filter) implements PlanRecord {
        public int type() { return DECISIONS; }
    }

    /** A cBPF program: struct sock_filter[] in native (little-endian) layout, 8 bytes per instruction. */
    record Seccomp(int flags, byte[] filter) implements PlanRecord {
        public Seccomp { filter = filter.clone(); }
        public byte[] filter() { return filter.clone(); }
        public int type() { return SECCOMP; }
        @Override public boolean equals(Object o) {
            return o instanceof Seccomp s && s.flags == flags && Arrays.equals(s.filter, filter);
        }
        @Override public int hashCode() { return 31 * flags + Arrays.hashCode(filter); }
        @Override public String toString() { return "Seccomp[flags=" + flags + ", insns=" + filter.length / 8 + "]"; }
    }

    /** An inherited descriptor the program keeps; every other inherited descriptor is sealed. */
    record KeepFd(int fd) implements PlanRecord {
        public int type() { return KEEP_FD; }
    }

    /** Signals the launcher forwards to the program (bit n = signal n). */
    record Signals(SignalTarget target, long mask) implements PlanRecord {
        public Signals { Objects.requireNonNull(target); }
        public static Signals of(SignalTarget target, int... signals) {
            long m = 0;
            for (int s : signals) m |= 1L << s;
            return new Signals(target, m);
        }
        public int type() { return SIGNALS; }
    }

    /** Any type and payload, sent as is: for forward-compatibility tests and refusal tests. */
    record Raw(int type, byte[] payload) implements PlanRecord {
        public Raw { payload = payload.clone(); }
        public byte[] payload() { return payload.clone(); }
        @Override public boolean equals(Object o) {
            return o instanceof Raw r && r.type == type && Arrays.equals(r.payload, payload);
        }
        @Override public int hashCode() { return 31 * type + Arrays.hashCode(payload); }
        @Override public String toString() { return "Raw[type=" + type + ", bytes=" + payload.length + "]"; }
    }

    enum Namespace {
        USER(1), PID(2), NET(4), IPC(8), MOUNT(16);
        private final int bit;
        Namespace(int bit) { this.bit = bit; }
        public int bit() { return bit; }
    }

    enum SignalTarget {
        PROGRAM(0), GROUP(1), ALL(2);
        private final int code;
        SignalTarget(int code) { this.code = code; }
        public int code() { return code; }
    }
}
