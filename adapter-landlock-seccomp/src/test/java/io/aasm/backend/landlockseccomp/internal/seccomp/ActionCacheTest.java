package io.aasm.backend.landlockseccomp.internal.seccomp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.backend.landlockseccomp.internal.host.Arch;
import io.aasm.ports.policy.SyscallMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hot calls of file and process work bypass both programs of a launch through the kernel's action cache
 * (measured: docs/benchmarks.md, "Steady-state cost inside a launch"). A program that read an argument or the
 * instruction pointer for every call, or answered everything by notification, would make every call run it.
 */
class ActionCacheTest {
    /** x86_64 numbers of the calls a find, grep, python or shell makes most. */
    static final Map<String, Integer> HOT = new TreeMap<>(Map.ofEntries(Map.entry("read", 0), Map.entry("write", 1),
            Map.entry("close", 3), Map.entry("fstat", 5), Map.entry("lseek", 8), Map.entry("mmap", 9),
            Map.entry("munmap", 11), Map.entry("brk", 12), Map.entry("rt_sigaction", 13), Map.entry("pread64", 17),
            Map.entry("access", 21), Map.entry("getpid", 39), Map.entry("wait4", 61), Map.entry("fcntl", 72),
            Map.entry("getcwd", 79), Map.entry("readlink", 89), Map.entry("futex", 202),
            Map.entry("getdents64", 217), Map.entry("clock_gettime", 228), Map.entry("openat", 257),
            Map.entry("newfstatat", 262), Map.entry("statx", 332), Map.entry("execve", 59)));

    static FilterCompiler compiler;

    @BeforeAll
    static void load() {
        Assumptions.assumeTrue(Libseccomp.available(),
                "environment cannot host this check: libseccomp.so.2 is not installed");
        Assumptions.assumeTrue(Arch.fromJvm(System.getProperty("os.arch")).orElse(null) == Arch.X86_64,
                "environment cannot host this check: the numbers above are x86_64's");
        compiler = new FilterCompiler(Libseccomp.load());
    }

    private static byte[] compiled(SyscallFilters.Concerns c) {
        return assertInstanceOf(FilterCompiler.Result.Program.class,
                compiler.compile(SyscallFilters.build(c, n -> compiler.resolve(n).isPresent()))).bytes();
    }

    @Test
    void hotCallsBypassTheBaselineAndThePolicyProgram() {
        byte[] baseline = BaselineFilter.build(Arch.X86_64, compiler.firstUnknownNumber());
        // the bench policy's concerns: a deny list, sockets limited (egress by port), io_uring denied
        byte[] deny = compiled(new SyscallFilters.Concerns(Optional.of(SyscallMode.DENY), List.of("ptrace", "mount",
                "bpf", "keyctl"), Optional.of(new SyscallFilters.Sockets(false)), true, false));
        byte[] allow = compiled(new SyscallFilters.Concerns(Optional.of(SyscallMode.ALLOW), List.copyOf(HOT.keySet()),
                Optional.empty(), true, true));
        for (var e : HOT.entrySet()) {
            for (byte[] p : List.of(baseline, deny, allow)) {
                assertTrue(ActionCache.constAllow(p, ActionCache.AUDIT_ARCH_X86_64, e.getValue()), e.getKey()
                        + " is evaluated on every call");
            }
        }
        // what the programs inspect is still inspected: ioctl (TIOCSTI) and clone (namespace flags) in the baseline,
        // socket (families) in the policy program; denied calls never bypass
        assertFalse(ActionCache.constAllow(baseline, ActionCache.AUDIT_ARCH_X86_64, 16), "ioctl");
        assertFalse(ActionCache.constAllow(baseline, ActionCache.AUDIT_ARCH_X86_64, 56), "clone");
        assertFalse(ActionCache.constAllow(deny, ActionCache.AUDIT_ARCH_X86_64, 41), "socket");
        assertFalse(ActionCache.constAllow(deny, ActionCache.AUDIT_ARCH_X86_64, 101), "ptrace");
        assertFalse(ActionCache.constAllow(allow, ActionCache.AUDIT_ARCH_X86_64, 101), "ptrace (not allowed)");
        // another architecture never bypasses (the programs kill it)
        assertFalse(ActionCache.constAllow(deny, 0x40000003, 0), "i386 read");
    }

    @Test
    void theEmulatorRejectsAProgramThatReadsAnArgumentForEveryCall() {
        byte[] readsArg = {0x20, 0, 0, 0, 16, 0, 0, 0, 0x06, 0, 0, 0, 0, 0, (byte) 0xff, 0x7f};
        assertFalse(ActionCache.constAllow(readsArg, ActionCache.AUDIT_ARCH_X86_64, 0));
        byte[] allowsAll = {0x06, 0, 0, 0, 0, 0, (byte) 0xff, 0x7f};
        assertTrue(ActionCache.constAllow(allowsAll, ActionCache.AUDIT_ARCH_X86_64, 0));
        assertEquals(8, allowsAll.length);
    }
}
