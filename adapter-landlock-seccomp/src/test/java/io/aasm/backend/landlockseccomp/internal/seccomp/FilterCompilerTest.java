package io.aasm.backend.landlockseccomp.internal.seccomp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aasm.ports.policy.SyscallMode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FilterCompilerTest {
    static FilterCompiler compiler;

    @BeforeAll
    static void load() {
        Assumptions.assumeTrue(Libseccomp.available(),
                "environment cannot host this check: libseccomp.so.2 is not installed");
        compiler = new FilterCompiler(Libseccomp.load());
    }

    /** Baseline names libseccomp does not know (a newer kernel's) are left to the hand-made baseline filter. */
    private static FilterSpec build(SyscallFilters.Concerns c) {
        return SyscallFilters.build(c, n -> compiler.resolve(n).isPresent());
    }

    private static FilterCompiler.Result.Program program(FilterSpec spec) {
        return assertInstanceOf(FilterCompiler.Result.Program.class, compiler.compile(spec));
    }

    @Test
    void everyProgramCompilesToWholeInstructions() {
        for (FilterSpec spec : List.of(deny(List.of("ptrace", "mount")), allow(List.of("write", "socket", "clone")),
                build(SyscallFilters.Concerns.hardeningOnly()),
                build(new SyscallFilters.Concerns(Optional.of(SyscallMode.ALLOW), List.of("socket",
                        "clone", "clone3", "mount"), Optional.of(new SyscallFilters.Sockets(false)), true, true)),
                build(new SyscallFilters.Concerns(Optional.empty(), List.of(),
                        Optional.of(new SyscallFilters.Sockets(true)), true, true)))) {
            FilterCompiler.Result.Program p = program(spec);
            assertTrue(p.bytes().length > 0 && p.bytes().length % 8 == 0, spec.purpose());
        }
    }

    @Test
    void argumentFiltersMakeLongerPrograms() {
        int none = program(deny(List.of())).instructions();
        assertTrue(program(sockets(false)).instructions() > none);
        assertTrue(program(sockets(true)).instructions() > none);
    }

    @Test
    void egressSocketRulesNameEveryOtherFamilyTypeAndFastOpen() {
        List<FilterSpec.Rule> rules = sockets(false).rules();
        assertTrue(rules.contains(new FilterSpec.Rule("socket", FilterSpec.EPERM, List.of(FilterSpec.ArgCmp.eq(0, 17)))),
                "AF_PACKET");
        assertTrue(rules.contains(new FilterSpec.Rule("socket", FilterSpec.EPERM,
                List.of(new FilterSpec.ArgCmp(0, FilterSpec.Op.GE, 46, 0)))), "families a newer kernel adds");
        assertTrue(rules.stream().anyMatch(r -> r.syscall().equals("socket") && r.args().size() == 3
                && r.args().get(2).equals(new FilterSpec.ArgCmp(2, FilterSpec.Op.GT, 6, 0))), "MPTCP and SCTP streams");
        assertTrue(rules.stream().anyMatch(r -> r.syscall().equals("sendto")), "TCP Fast Open on sendto");
        assertTrue(rules.stream().anyMatch(r -> r.syscall().equals("setsockopt")), "TCP_FASTOPEN_CONNECT");
    }

    @Test
    void unknownNameIsAClearRejection() {
        FilterCompiler.Result r = compiler.compile(deny(List.of("no_such_call")));
        FilterCompiler.Result.Rejected rej = assertInstanceOf(FilterCompiler.Result.Rejected.class, r);
        assertTrue(rej.reason().contains("unknown syscall name 'no_such_call'"), rej.reason());
    }

    @Test
    void denyWinsInAllowMode() {
        FilterSpec s = build(new SyscallFilters.Concerns(Optional.of(SyscallMode.ALLOW),
                List.of("mount", "write", "fork"), Optional.empty(), false, true));
        assertTrue(s.rules().stream().noneMatch(r -> r.syscall().equals("mount") || r.syscall().equals("fork")));
        assertTrue(s.rules().stream().anyMatch(r -> r.syscall().equals("write")));
        assertTrue(s.rules().contains(FilterSpec.Rule.of("clone3", FilterSpec.ENOSYS)));
    }

    private static FilterSpec deny(List<String> names) {
        return build(new SyscallFilters.Concerns(Optional.of(SyscallMode.DENY), names, Optional.empty(),
                false, false));
    }

    private static FilterSpec allow(List<String> names) {
        return build(new SyscallFilters.Concerns(Optional.of(SyscallMode.ALLOW), names,
                Optional.of(new SyscallFilters.Sockets(false)), false, true));
    }

    private static FilterSpec sockets(boolean udp) {
        return build(new SyscallFilters.Concerns(Optional.empty(), List.of(),
                Optional.of(new SyscallFilters.Sockets(udp)), false, false));
    }

    @Test
    void x86ProgramChecksTheArchitectureAndRejectsX32Numbers() {
        Assumptions.assumeTrue(System.getProperty("os.arch").equals("amd64"),
                "environment cannot host this check: not an x86_64 JVM");
        byte[] b = program(deny(List.of("ptrace"))).bytes();
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.util.List<Long> ks = new java.util.ArrayList<>();
        for (int i = 0; i < b.length; i += 8) {
            ks.add(Integer.toUnsignedLong(buf.getInt(i + 4)));
        }
        assertTrue(ks.contains(0xc000003eL), "AUDIT_ARCH_X86_64 check");
        assertTrue(ks.contains(0x40000000L), "x32 syscall bit check");
        assertTrue(ks.contains(0x80000000L), "KILL_PROCESS for a foreign ABI");
    }

    @Test
    void resolvesKnownNames() {
        assertTrue(compiler.resolve("openat").isPresent());
        assertTrue(compiler.resolve("definitely_not").isEmpty());
    }

    @Test
    void ruleEqualToDefaultIsSkipped() {
        FilterSpec s = new FilterSpec("t", FilterSpec.ALLOW, List.of(FilterSpec.Rule.of("read", FilterSpec.ALLOW)));
        assertEquals(s, program(s).spec());
    }
}
